import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { encodeGeohash } from "./lib/geo";
import { tonightPage } from "./model/tonight";
import { expectAppError } from "./testing/test.expect";
import { createSceneItem, createUser, newTest } from "./testing/test.setup";
import {
  MANHATTAN,
  NY,
  type Args,
  baseArgs,
  tonight,
  allPages,
  titles,
  WED_EVENING,
  hostedWednesdayMics,
} from "./testing/test.tonight";

/**
 * A query context whose reads are counted: every document a query yields
 * (iteration or `first`) or a `get` returns, as the engine counts documents read.
 */
function countingCtx<C extends { db: object }>(ctx: C): { ctx: C; reads: () => number } {
  let reads = 0;
  const wrapQuery = (q: unknown): unknown =>
    new Proxy(q as object, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === Symbol.asyncIterator) {
          return () => {
            const it = (value as () => AsyncIterator<unknown>).call(target);
            return {
              next: async () => {
                const r = await it.next();
                if (!r.done) reads++;
                return r;
              },
            };
          };
        }
        if (prop === "first") {
          return async () => {
            const doc = await (value as () => Promise<unknown>).call(target);
            if (doc !== null) reads++;
            return doc;
          };
        }
        if (typeof value === "function" && ["withIndex", "order", "filter"].includes(String(prop))) {
          return (...a: unknown[]) => wrapQuery((value as (...x: unknown[]) => unknown).apply(target, a));
        }
        return typeof value === "function" ? (value as (...x: unknown[]) => unknown).bind(target) : value;
      },
    });
  const db = new Proxy(ctx.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === "query") return (table: string) => wrapQuery((value as (t: string) => unknown).call(target, table));
      return typeof value === "function" ? (value as (...x: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ctx: { ...ctx, db }, reads: () => reads };
}

describe("tonight.list pages", () => {
  const key = (n: { item: { title: string }; status: string | null }) =>
    `${n.item.title}${n.status === "cancelled" ? " (cancelled)" : ""}`;

  test("pages across time zones keep the real start order, without gaps or repeats", async () => {
    const t = newTest();
    // 19:45 in New York is 18:45 in Chicago and 16:45 in Los Angeles; all in Manhattan.
    const mics: Array<[string, string, string]> = [
      ["NY 20:00", "20:00", NY],
      ["Chicago 19:30 (NY 20:30)", "19:30", "America/Chicago"],
      ["NY 20:15", "20:15", NY],
      ["LA 18:00 (NY 21:00)", "18:00", "America/Los_Angeles"],
      ["NY 21:30", "21:30", NY],
      ["Chicago 19:00 (NY 20:00)", "19:00", "America/Chicago"],
      ["Chicago 21:00 (NY 22:00)", "21:00", "America/Chicago"],
    ];
    for (const [title, startTimeLocal, timeZone] of mics) {
      await createSceneItem(t, { title, dayOfWeek: 3, startTimeLocal, timeZone });
    }
    const area = { ...MANHATTAN, radiusMiles: 10 };
    const whole = await tonight(t, { nowMs: WED_EVENING, area });
    const expected = [
      "Chicago 19:00 (NY 20:00)",
      "NY 20:00",
      "NY 20:15",
      "Chicago 19:30 (NY 20:30)",
      "LA 18:00 (NY 21:00)",
      "NY 21:30",
      "Chicago 21:00 (NY 22:00)",
    ];
    // Same instant (NY 20:00 and Chicago 19:00): the earlier local time, then creation order.
    expect(titles(whole.nights)).toEqual(expected);
    for (const size of [1, 2, 3]) {
      const paged = await allPages(t, { nowMs: WED_EVENING, area }, size);
      expect(titles(paged.nights)).toEqual(expected);
      expect(paged.sizes.slice(0, -1).every((n) => n === size)).toBe(true);
    }
    // Without an area, only the viewer's zone, still paged in order.
    const zone = await allPages(t, { nowMs: WED_EVENING, timeZone: "America/Chicago" }, 2);
    expect(titles(zone.nights)).toEqual([
      "Chicago 19:00 (NY 20:00)",
      "Chicago 19:30 (NY 20:30)",
      "Chicago 21:00 (NY 22:00)",
    ]);
  });

  test("past midnight, yesterday's running nights come first and page on into today's", async () => {
    const t = newTest();
    const now = Date.parse("2026-11-26T00:30:00-05:00"); // Thursday 00:30
    await createSceneItem(t, { title: "Wed 23:45", dayOfWeek: 3, startTimeLocal: "23:45" }); // ends 00:50
    await createSceneItem(t, { title: "Wed 23:30", dayOfWeek: 3, startTimeLocal: "23:30" }); // ends 00:35
    await createSceneItem(t, { title: "Wed 23:00", dayOfWeek: 3, startTimeLocal: "23:00" }); // over at 00:05
    await createSceneItem(t, { title: "Thu 00:15", dayOfWeek: 4, startTimeLocal: "00:15" });
    await createSceneItem(t, { title: "Thu 19:00", dayOfWeek: 4, startTimeLocal: "19:00" });
    await createSceneItem(t, { title: "Thu 20:00", dayOfWeek: 4, startTimeLocal: "20:00" });
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const paged = await allPages(t, { nowMs: now, area }, 2);
      expect(titles(paged.nights)).toEqual(["Wed 23:30", "Wed 23:45", "Thu 00:15", "Thu 19:00", "Thu 20:00"]);
      expect(paged.nights.map((n) => n.date)).toEqual([
        "2026-11-25",
        "2026-11-25",
        "2026-11-26",
        "2026-11-26",
        "2026-11-26",
      ]);
    }
  });

  test("DST nights page without gaps: the fall-back night and a start inside the spring-forward gap", async () => {
    const t = newTest();
    // Saturday 31 October into Sunday 1 November 2026: clocks go back at 02:00.
    await createSceneItem(t, { title: "Sat 23:50", dayOfWeek: 6, startTimeLocal: "23:50", performanceMinutes: 10 });
    await createSceneItem(t, { title: "Sat 23:55", dayOfWeek: 6, startTimeLocal: "23:55", performanceMinutes: 10 });
    await createSceneItem(t, { title: "Sun 01:30", dayOfWeek: 0, startTimeLocal: "01:30" });
    await createSceneItem(t, { title: "Sun 20:00", dayOfWeek: 0, startTimeLocal: "20:00" });
    const fallBack = await allPages(t, { nowMs: Date.parse("2026-11-01T00:55:00-04:00") }, 1);
    expect(titles(fallBack.nights)).toEqual(["Sat 23:50", "Sat 23:55", "Sun 01:30", "Sun 20:00"]);
    expect(fallBack.nights[2]!.startMs).toBe(Date.parse("2026-11-01T01:30:00-04:00"));

    // Sunday 8 March 2026: 02:30 does not exist; it starts at 03:30 EDT but sorts at the jump (03:00), before 03:15.
    const spring = newTest();
    await createSceneItem(spring, { title: "Sun 02:30 (gap)", dayOfWeek: 0, startTimeLocal: "02:30" });
    await createSceneItem(spring, { title: "Sun 03:15", dayOfWeek: 0, startTimeLocal: "03:15" });
    await createSceneItem(spring, { title: "Sun 03:45", dayOfWeek: 0, startTimeLocal: "03:45" });
    const now = Date.parse("2026-03-08T01:00:00-05:00");
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const paged = await allPages(spring, { nowMs: now, area }, 1);
      expect(titles(paged.nights)).toEqual(["Sun 02:30 (gap)", "Sun 03:15", "Sun 03:45"]);
      expect(paged.nights[0]!.startMs).toBe(Date.parse("2026-03-08T03:30:00-04:00"));
    }
  });

  test("cancelled nights come after every other night, across page boundaries", async () => {
    const t = newTest();
    const host = await createUser(t);
    const ids = await hostedWednesdayMics(
      t,
      host,
      Array.from({ length: 7 }, (_, i) => `20:0${i}`),
    );
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_EVENING);
    try {
      for (const i of [0, 2, 5]) {
        await host.asUser.mutation(api.claims.setCancelledDate, {
          micId: ids[i]!,
          date: "2026-11-25",
          cancelled: true,
        });
      }
    } finally {
      vi.useRealTimers();
    }
    const expected = [
      "Mic 1",
      "Mic 3",
      "Mic 4",
      "Mic 6",
      "Mic 0 (cancelled)",
      "Mic 2 (cancelled)",
      "Mic 5 (cancelled)",
    ];
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      for (const size of [1, 2, 3, 5, 50]) {
        const paged = await allPages(t, { nowMs: WED_EVENING, area }, size);
        expect(paged.nights.map(key)).toEqual(expected);
      }
    }
    // Greyed-out status comes with the night.
    const last = await allPages(t, { nowMs: WED_EVENING }, 3);
    expect(last.nights.slice(4).every((n) => n.status === "cancelled")).toBe(true);
  });

  test("a page re-run with its end cursor keeps its range when a night is cancelled or added", async () => {
    const t = newTest();
    const host = await createUser(t);
    const ids = await hostedWednesdayMics(
      t,
      host,
      Array.from({ length: 4 }, (_, i) => `20:${i}0`),
    );
    const args = { ...baseArgs({ nowMs: WED_EVENING }) };
    const first = await t.query(api.tonight.list, { ...args, paginationOpts: { numItems: 2, cursor: null } });
    expect(titles(first.page)).toEqual(["Mic 0", "Mic 1"]);
    await createSceneItem(t, { title: "Mic 0b", dayOfWeek: 3, startTimeLocal: "20:05" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(WED_EVENING);
    try {
      await host.asUser.mutation(api.claims.setCancelledDate, { micId: ids[1]!, date: "2026-11-25", cancelled: true });
    } finally {
      vi.useRealTimers();
    }
    const rerun = await t.query(api.tonight.list, {
      ...args,
      paginationOpts: { numItems: 2, cursor: null, endCursor: first.continueCursor },
    });
    // The new mic falls inside the pinned range; the cancelled one leaves it (it comes last).
    expect(titles(rerun.page)).toEqual(["Mic 0", "Mic 0b"]);
    expect(rerun.continueCursor).toBe(first.continueCursor);
    const rest = await t.query(api.tonight.list, {
      ...args,
      paginationOpts: { numItems: 50, cursor: first.continueCursor },
    });
    expect(rest.page.map(key)).toEqual(["Mic 2", "Mic 3", "Mic 1 (cancelled)"]);
    expect(rest.isDone).toBe(true);
  });

  test("a page reads its own nights plus one row per source, whatever the area's total", async () => {
    const t = newTest();
    const seed = async (count: number, offset: number) => {
      await t.run(async (ctx) => {
        for (let i = 0; i < count; i++) {
          const n = offset + i;
          const lat = 40.74 + ((n % 20) - 10) * 0.004;
          const lng = -73.99 + (Math.floor(n / 20) % 20) * 0.004;
          const hh = 20 + Math.floor((n % 240) / 60);
          const geohash = encodeGeohash(lat, lng, 6);
          await ctx.db.insert("sceneItems", {
            title: `Mic ${n}`,
            venueName: `Room ${n}`,
            city: "New York",
            type: "open_mic",
            latitude: lat,
            longitude: lng,
            dayOfWeek: 3,
            startTimeLocal: `${hh}:${String(n % 60).padStart(2, "0")}`,
            recurrence: "weekly",
            timeZone: NY,
            status: "active",
            checkInCount: 0,
            verifiedCheckIns30d: 0,
            geohash,
            areaCell: geohash.slice(0, 4),
            searchText: `mic ${n} room ${n} new york`,
          });
        }
      });
    };
    const readsOfPage = async (args: Args) =>
      await t.run(async (ctx) => {
        const counted = countingCtx(ctx);
        const page = await tonightPage(counted.ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: null },
        });
        const second = await tonightPage(ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: page.continueCursor },
        });
        const counted2 = countingCtx(ctx);
        await tonightPage(counted2.ctx, {
          ...baseArgs(args),
          paginationOpts: { numItems: 10, cursor: second.continueCursor },
        });
        return { first: counted.reads(), third: counted2.reads(), page };
      });
    await seed(40, 0);
    const area = { lat: 40.74, lng: -73.96, radiusMiles: 10 };
    const small = {
      zone: await readsOfPage({ nowMs: WED_EVENING }),
      area: await readsOfPage({ nowMs: WED_EVENING, area }),
    };
    await seed(400, 40);
    const big = {
      zone: await readsOfPage({ nowMs: WED_EVENING }),
      area: await readsOfPage({ nowMs: WED_EVENING, area }),
    };
    expect(big.zone.page.page).toHaveLength(10);
    expect(big.area.page.page).toHaveLength(10);
    // Ten nights, plus at most one row ahead per source (and one row per time zone per cell for the area).
    for (const m of [small.zone, small.area, big.zone, big.area]) {
      expect(m.first).toBeLessThanOrEqual(30);
      expect(m.third).toBeLessThanOrEqual(30);
    }
    // Ten times the mics, the same reads.
    expect(big.zone.first).toBeLessThanOrEqual(small.zone.first + 2);
    expect(big.area.first).toBeLessThanOrEqual(small.area.first + 5);
  });

  test("tomorrow holds its first five nights in start order, around a point too", async () => {
    const t = newTest();
    for (const time of ["22:00", "19:00", "20:00", "18:00", "21:00", "23:00"]) {
      await createSceneItem(t, { title: `Thu ${time}`, dayOfWeek: 4, startTimeLocal: time });
    }
    for (const area of [undefined, { ...MANHATTAN, radiusMiles: 10 }]) {
      const next = await t.query(api.tonight.tomorrow, baseArgs({ nowMs: WED_EVENING, area }));
      expect(titles(next)).toEqual(["Thu 18:00", "Thu 19:00", "Thu 20:00", "Thu 21:00", "Thu 22:00"]);
    }
  });

  test("a cursor that is not Tonight's is refused as an invalid cursor", async () => {
    const t = newTest();
    for (const cursor of [
      "nope",
      "{}",
      JSON.stringify({ v: 1, phase: 5, key: null }),
      JSON.stringify({ v: 1, phase: 0, key: [1, 2] }),
    ]) {
      await expectAppError(
        t.query(api.tonight.list, { ...baseArgs({ nowMs: WED_EVENING }), paginationOpts: { numItems: 5, cursor } }),
        "INVALID_INPUT",
        /cursor is not valid/,
      );
    }
  });
});
