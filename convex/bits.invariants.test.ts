import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import { localDateString } from "./lib/time";
import { checkAllInvariants } from "./testing/test.invariants";
import {
  createAdmin,
  createSceneItem,
  createUser,
  newTest,
  type TestBackend,
  type TestUser,
} from "./testing/test.setup";

vi.setConfig({ testTimeout: 120_000 });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 25, 23);
const RATINGS = ["landed", "okay", "flat"] as const;

/** A small deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

type World = { t: TestBackend; comics: TestUser[]; admin: TestUser; mics: Id<"sceneItems">[] };

async function world(): Promise<World> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  const t = newTest();
  const comics = [await createUser(t, { name: "Ana" }), await createUser(t, { name: "Ben" })];
  const admin = await createAdmin(t);
  const mics = [
    await createSceneItem(t, { title: "Mic A" }),
    await createSceneItem(t, { title: "Mic B" }),
    await createSceneItem(t, { title: "Mic C" }),
  ];
  return { t, comics, admin, mics };
}

async function expectConsistent(t: TestBackend) {
  const report = await checkAllInvariants(t);
  expect(report.problems).toEqual([]);
}

/**
 * `steps` random writes through the public functions: bits written and edited,
 * sets logged (some on a night with a set list attached), rated and re-rated
 * (notes, cuts), skipped, moved in time, deleted, and a mic deleted by an
 * admin; the check runs every `every` steps.
 */
async function randomHistory(w: World, seed: number, steps: number, every: number) {
  const r = rng(seed);
  const bits = new Map<string, Id<"bits">[]>();
  const sets = new Map<string, Id<"performances">[]>();
  for (const c of w.comics) {
    const ids: Id<"bits">[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await c.asUser.mutation(api.bits.create, {
          title: `${c.userId} bit ${i}`,
          tags: [`t${i % 3}`],
          status: "working",
          seconds: 60,
        }),
      );
    }
    bits.set(c.userId, ids);
    sets.set(c.userId, []);
  }
  let micDeleted = false;
  for (let step = 1; step <= steps; step++) {
    const c = r.pick(w.comics);
    const mine = bits.get(c.userId)!;
    const mySets = sets.get(c.userId)!;
    const op = r.int(10);
    if (op <= 2 || mySets.length === 0) {
      // Log a set, sometimes on a night a set list was attached to first.
      const micId = r.pick(w.mics);
      const performedAt = NOW - r.int(60) * DAY - r.int(5) * HOUR;
      if (r.int(2) === 0) {
        await c.asUser.mutation(api.setLists.create, {
          title: `List ${step}`,
          bitIds: [r.pick(mine), r.pick(mine), r.pick(mine)],
          night: { micId, date: localDateString(performedAt, "America/New_York") },
        });
      }
      const { performanceId } = await c.asUser.mutation(api.performances.log, {
        minutes: 5,
        performedAt,
        tags: [],
        sceneItemId: micDeleted ? undefined : micId,
        ...(micDeleted ? { venueName: "Somewhere" } : {}),
      });
      mySets.push(performanceId);
    } else if (op <= 5) {
      // Rate (or re-rate) some bits of a set.
      const performanceId = r.pick(mySets);
      const chosen = [...new Set([r.pick(mine), r.pick(mine), r.pick(mine)])];
      await c.asUser.mutation(api.ratings.rate, {
        performanceId,
        ratings: chosen.map((bitId) => ({
          bitId,
          rating: r.pick(RATINGS),
          ...(r.int(3) === 0 ? { note: "tag it" } : {}),
          ...(r.int(5) === 0 ? { cut: true } : {}),
        })),
      });
    } else if (op === 6) {
      // Move a set in time (across a month now and then).
      await c.asUser.mutation(api.performances.update, {
        id: r.pick(mySets),
        minutes: 6,
        performedAt: NOW - r.int(90) * DAY,
      });
    } else if (op === 7) {
      const id = r.pick(mySets);
      await c.asUser.mutation(api.performances.remove, { id });
      mySets.splice(mySets.indexOf(id), 1);
    } else if (op === 8) {
      const id = r.pick(mine);
      await c.asUser.mutation(api.bits.update, {
        id,
        title: `${c.userId} bit renamed ${step}`,
        tags: [`t${r.int(4)}`, "edited"],
        status: r.pick(["new", "working", "tight", "retired"] as const),
      });
      await c.asUser.mutation(api.bits.setArchived, { id, archived: r.int(2) === 0 });
    } else if (!micDeleted && step > steps / 2) {
      // An admin deletes a mic: its sets (and their ratings) lose the mic.
      await w.admin.asUser.mutation(api.admin.deleteMic, { id: w.mics[0] });
      w.mics.shift();
      micDeleted = true;
    } else {
      const pending = await c.asUser.query(api.ratings.pending, {});
      if (pending !== null) await c.asUser.mutation(api.ratings.skip, { performanceId: pending.performanceId });
    }
    if (step % every === 0) await expectConsistent(w.t);
  }
}

describe("the material numbers equal a recount of the ratings", () => {
  for (const seed of [1, 2, 3]) {
    test(`after a random history of ratings, edits and deletions (seed ${seed})`, async () => {
      const w = await world();
      await randomHistory(w, seed, 60, 15);
      // The history really rated bits: the check compared something.
      const rated = await w.t.run(async (ctx) => (await ctx.db.query("bitRatings").take(1000)).length);
      expect(rated).toBeGreaterThan(10);
    });
  }

  test("after the account is deleted, nothing of its material is left to disagree", async () => {
    const w = await world();
    await randomHistory(w, 4, 30, 30);
    await w.comics[0].asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" });
    await expectConsistent(w.t);
    await w.t.finishAllScheduledFunctions(vi.runAllTimers);
    await expectConsistent(w.t);
  });
});

describe("the check notices", () => {
  test("a bit's count, a room, a month and a set's review that no longer match the ratings", async () => {
    const w = await world();
    await randomHistory(w, 5, 40, 40);
    // Raw writes, around the triggers.
    const broken = await w.t.run(async (ctx) => {
      const rating = (await ctx.db.query("bitRatings").first())!;
      const bit = (await ctx.db.get("bits", rating.bitId))!;
      await ctx.db.patch("bits", bit._id, { landed: bit.landed + 1, recent: [] });
      const room = (await ctx.db.query("bitRooms").first())!;
      await ctx.db.patch("bitRooms", room._id, { flat: room.flat + 2 });
      const month = (await ctx.db.query("bitMonths").first())!;
      await ctx.db.delete("bitMonths", month._id);
      const review = (await ctx.db
        .query("setReviews")
        .withIndex("by_performance", (q) => q.eq("performanceId", rating.performanceId))
        .first())!;
      await ctx.db.patch("setReviews", review._id, { rated: review.rated + 1 });
      return { bit: bit._id, room: `${room.bitId}|${room.sceneItemId}`, month: `${month.bitId}|${month.month}` };
    });
    const { problems } = await checkAllInvariants(w.t);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^bit ${broken.bit}: landed \\d+ but \\d+ from its ratings$`)),
        expect.stringMatching(new RegExp(`^bits ${broken.bit}: trend  but its newest ratings are `)),
        expect.stringMatching(new RegExp(`^room ${broken.room.replace("|", "\\|")}: flat`)),
        expect.stringMatching(new RegExp(`^month ${broken.month.replace("|", "\\|")}: performed 0 but \\d+`)),
        expect.stringMatching(/^set \w+: performed \d+ but \d+ from its ratings$/),
      ]),
    );
  });

  test("a rating left behind by its deleted set", async () => {
    const w = await world();
    await randomHistory(w, 6, 30, 30);
    const gone = await w.t.run(async (ctx) => {
      const rating = (await ctx.db.query("bitRatings").first())!;
      await ctx.db.delete("performances", rating.performanceId);
      return rating.performanceId;
    });
    const { problems } = await checkAllInvariants(w.t);
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining(`set ${gone} does not exist`)]));
  });
});
