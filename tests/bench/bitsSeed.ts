/**
 * The material bench's seeding module (tests/bench/bits.ts copies it into its
 * own copy of convex/ as `benchBits.ts`; never part of the app): a comedian's
 * mics, bits, and sets rated through the app's own model functions, so every
 * derived number is made by the triggers.
 */
import { v } from "convex/values";
import type { Id } from "@convex/_generated/dataModel";
import { internalMutation } from "@convex/functions";
import { localDateString } from "@convex/lib/time";
import { rateSet } from "@convex/model/bitRatings";
import { createBit } from "@convex/model/bits";
import * as Scene from "@convex/model/scene";
import { createSetList } from "@convex/model/setLists";

const STATUSES = ["new", "working", "tight"] as const;
const RATINGS = ["landed", "okay", "flat"] as const;
const DAY = 24 * 3_600_000;

/** `count` weekly UTC mics. */
export const seedMics = internalMutation({
  args: { prefix: v.string(), count: v.number() },
  returns: v.array(v.id("sceneItems")),
  handler: async (ctx, { prefix, count }) => {
    const ids: Id<"sceneItems">[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        await Scene.insertSceneItem(ctx, {
          title: `${prefix} Mic ${i + 1}`,
          venueName: `${prefix} Room ${i + 1}`,
          city: "New York",
          type: "open_mic",
          recurrence: "weekly",
          dayOfWeek: i % 7,
          startTimeLocal: "20:00",
          timeZone: "UTC",
        }),
      );
    }
    return ids;
  },
});

/** Bits `from` .. `from + count - 1` of a comedian's library, each with a tag and a status. */
export const seedBits = internalMutation({
  args: { userId: v.id("users"), from: v.number(), count: v.number() },
  returns: v.array(v.id("bits")),
  handler: async (ctx, { userId, from, count }) => {
    const ids: Id<"bits">[] = [];
    for (let i = from; i < from + count; i++) {
      ids.push(
        await createBit(ctx, userId, {
          title: `Bit ${i + 1}`,
          notes: `The premise of bit ${i + 1}.`,
          tags: [`tag${i % 10}`],
          seconds: 30 + (i % 5) * 30,
          status: STATUSES[i % STATUSES.length],
        }),
      );
    }
    return ids;
  },
});

/**
 * Sets `from` .. `from + count - 1` of `total`, one a day up to the day before
 * `nowMs` (each logged after the ones before it, as a comedian logs them),
 * round the mics; each rates `perSet` bits (bit 0 in every set, the rest in turn).
 */
export const seedRatedSets = internalMutation({
  args: {
    userId: v.id("users"),
    mics: v.array(v.id("sceneItems")),
    bits: v.array(v.id("bits")),
    from: v.number(),
    count: v.number(),
    total: v.number(),
    perSet: v.number(),
    nowMs: v.number(),
  },
  returns: v.object({ logReads: v.number(), rateReads: v.number() }),
  handler: async (ctx, { userId, mics, bits, from, count, total, perSet, nowMs }) => {
    // Documents read by logging the sets and by rating their bits (triggers included).
    const read = async () => (await ctx.meta.getTransactionMetrics()).documentsRead.used;
    let logReads = 0;
    let rateReads = 0;
    for (let i = from; i < from + count; i++) {
      const before = await read();
      const performedAt = nowMs - (total - i) * DAY;
      const performanceId = await ctx.db.insert("performances", {
        userId,
        minutes: 5,
        performedAt,
        performanceDate: localDateString(performedAt, "UTC"),
        sceneItemId: mics[i % mics.length],
        tags: [],
      });
      const logged = await read();
      const chosen = new Set<Id<"bits">>([bits[0]]);
      for (let k = 0; chosen.size < Math.min(perSet, bits.length); k++) {
        chosen.add(bits[(i * (perSet - 1) + k) % bits.length]);
      }
      await rateSet(ctx, userId, {
        performanceId,
        ratings: [...chosen].map((bitId, k) => ({ bitId, rating: RATINGS[(i + k) % RATINGS.length] })),
      });
      logReads += logged - before;
      rateReads += (await read()) - logged;
    }
    return { logReads, rateReads };
  },
});

/** Tonight's set list on the first mic, and the set logged there: a pending "How did it go?". */
export const seedPending = internalMutation({
  args: { userId: v.id("users"), micId: v.id("sceneItems"), bits: v.array(v.id("bits")), nowMs: v.number() },
  returns: v.id("performances"),
  handler: async (ctx, { userId, micId, bits, nowMs }) => {
    const date = localDateString(nowMs, "UTC");
    await createSetList(ctx, userId, { title: "Tonight", bitIds: bits, night: { micId, date } });
    return await ctx.db.insert("performances", {
      userId,
      minutes: 5,
      performedAt: nowMs,
      performanceDate: date,
      sceneItemId: micId,
      tags: [],
    });
  },
});
