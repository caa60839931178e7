import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { heavyAccount, type HeavyWorld, micFigures, SIZES } from "./testing/test.heavyAccount";
import { checkAllInvariants } from "./testing/test.invariants";
import { communityTotals, newTest, type TestBackend } from "./testing/test.setup";

// Thousands of fixture rows on a busy machine.
vi.setConfig({ testTimeout: 600_000 });

afterEach(() => {
  vi.useRealTimers();
});

/** The tables that can hold a comedian's rows, with the field naming them. */
const OWNED = {
  users: "_id",
  authAccounts: "userId",
  authSessions: "userId",
  profiles: "userId",
  userStats: "userId",
  performances: "userId",
  performanceDays: "userId",
  performanceWeeks: "userId",
  venueVisits: "userId",
  checkIns: "userId",
  favorites: "userId",
  scheduleEntries: "userId",
  userBadges: "userId",
  listSpots: "userId",
  micClaims: "claimantId",
  problemReports: "reporterId",
  sceneItems: "createdBy",
} as const;

/** How many rows of each table still name the comedian (tables with none left out). */
async function rowsOf(t: TestBackend, userId: Id<"users">): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [table, field] of Object.entries(OWNED)) {
    // A test may scan whole tables (a few thousand rows each here).
    const n = await t.run(
      async (ctx) =>
        (await ctx.db.query(table as keyof typeof OWNED).collect()).filter(
          (d) => (d as unknown as Record<string, unknown>)[field] === userId,
        ).length,
    );
    if (n > 0) found[table] = n;
  }
  return found;
}

/** The purge batches that ran, by outcome. */
async function batches(t: TestBackend): Promise<Record<string, number>> {
  return await t.run(async (ctx) => {
    const jobs = await ctx.db.system.query("_scheduled_functions").collect();
    const out: Record<string, number> = {};
    for (const job of jobs.filter((j) => j.name.includes("purgeBatch"))) {
      out[job.state.kind] = (out[job.state.kind] ?? 0) + 1;
    }
    return out;
  });
}

/** Each mic's figures, and what the check-ins left (the other comedians') make them. */
async function micFiguresAfter(t: TestBackend, world: HeavyWorld) {
  const mics = await t.run(async (ctx) => Promise.all(world.mics.map((id) => ctx.db.get("sceneItems", id))));
  return {
    stored: mics.map((m) => ({
      checkInCount: m!.checkInCount,
      lastCheckInAt: m!.lastCheckInAt,
      verifiedCheckIns30d: m!.verifiedCheckIns30d,
    })),
    expected: world.mics.map((id) => {
      const f = micFigures(
        world.theirs.filter((c) => c.sceneItemId === id),
        undefined,
      );
      return { ...f, verifiedCheckIns30d: f.verifiedCheckIns30d >= 2 ? f.verifiedCheckIns30d : 0 };
    }),
  };
}

describe("deleting a heavy account stays within Convex's per-transaction limits", () => {
  test(`${SIZES.sets} sets, ${SIZES.checkIns} check-ins over ${SIZES.mics} mics, favourites, lists, claims: gone, figures right`, async () => {
    const t = newTest();
    const world = await heavyAccount(t);
    const { comic } = world;
    // (The fixture's raw figures pass the invariant checker too; it takes half a minute on this fixture.)
    const before = await communityTotals(t);
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: SIZES.mics });

    expect(await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: false });

    // From the first transaction: signed out, no sign-in, nothing shows them.
    expect(await comic.asUser.query(api.profiles.me, {})).toBeNull();
    await expect(comic.asUser.mutation(api.profiles.ensure, {})).rejects.toThrow(/Account not found/);
    const first = await rowsOf(t, comic.userId);
    for (const gone of ["users", "authAccounts", "authSessions", "profiles", "userStats", "sceneItems", "listSpots"]) {
      expect(first).not.toHaveProperty(gone);
    }
    for (const id of world.added) {
      const mic = await t.query(api.scene.get, { id });
      expect(mic).toMatchObject({ status: "active" });
      expect(mic!.createdBy).toBeUndefined();
    }
    const { list } = await t.query(api.nightLists.current, { micId: world.mics[0] });
    // Tonight's list: the names behind move up and the waitlist's first takes the freed place.
    expect(list!.list.map((s) => [s.name, s.place])).toEqual([
      ["Ahead", 1],
      ["Behind", 2],
      ["Waiting", 3],
    ]);
    expect(list!.waitlist).toEqual([]);
    expect(JSON.stringify(list)).not.toContain("Heavy Comic");
    const past = await t.query(api.nightLists.current, { micId: world.mics[1] });
    expect(past.list!.list).toEqual([]);
    const totals = await communityTotals(t);
    expect(totals.comedians).toBe(before.comedians - 1);
    expect(totals.minutesLogged).toBe(before.minutesLogged - 5 * SIZES.sets);

    // The rest, batch after batch, each a transaction within the limits (convex-test enforces them).
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const ran = await batches(t);
    expect(Object.keys(ran)).toEqual(["success"]);
    expect(ran.success).toBeGreaterThan(1);
    expect(await rowsOf(t, comic.userId)).toEqual({});
    const figures = await micFiguresAfter(t, world);
    expect(figures.stored).toEqual(figures.expected);
    // A busy mic stays Verified by its 300 others; a mic the comedian verified with one local no longer is.
    expect(figures.stored[0].verifiedCheckIns30d).toBe(SIZES.busyComedians);
    expect(figures.stored[SIZES.mics - 1]).toMatchObject({ checkInCount: 1, verifiedCheckIns30d: 0 });
    expect(await t.query(api.community.stats, {})).toMatchObject({ venues: SIZES.mics });
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });
});
