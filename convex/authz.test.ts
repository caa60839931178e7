/**
 * The authorization matrix: every public function called as each caller against the owner's real data, while a
 * bystander's rows must hold (except the `changesBystander` cells). Cells: convex/testing/test.authzMatrix.ts.
 */
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { matrix } from "./testing/test.authzMatrix";
import { snapshotWorld } from "./testing/test.authzSnapshot";
import {
  buildWorld,
  bystanderMarkers,
  callerOf,
  NOW,
  privateMarkers,
  VENUE,
  type Entry,
  type Role,
  type World,
} from "./testing/test.authzWorld";
import { callPublic, publicFunctions, useOfflineServer } from "./testing/test.registry";
import { createSceneItem, createUser, newTest } from "./testing/test.setup";
import { checkAllInvariants } from "./testing/test.invariants";

vi.setConfig({ testTimeout: 60_000 });

function isEmptyAnswer(value: unknown): boolean {
  if (value === null || value === false || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object" && Array.isArray((value as { page?: unknown }).page)) {
    return (value as { page: unknown[] }).page.length === 0;
  }
  return false;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function attempt(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function describeError(error: unknown): string {
  if (error instanceof ConvexError) return `ConvexError ${JSON.stringify(error.data)}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The lists a call removed spots from, for a function whose `changesBystander`
 * has `ranksOnLeftLists` (empty otherwise, and for a call that removed none):
 * the spots after a removed one move up, so their `rank` may change.
 */
function leftLists(entry: Entry, allBefore: Record<string, unknown[]>, allAfter: Record<string, unknown[]>) {
  if (entry.changesBystander === undefined || !("ranksOnLeftLists" in entry.changesBystander)) return new Set();
  const spotsAfter = new Set((allAfter.listSpots ?? []).map((s) => (s as { _id: string })._id));
  return new Set(
    (allBefore.listSpots ?? [])
      .map((s) => s as { _id: string; listId: string })
      .filter((s) => !spotsAfter.has(s._id))
      .map((s) => s.listId),
  );
}

/** `rows` without the `rank` of spots on the lists in `lists`. */
function withoutRanksOn<T>(rows: T[], lists: Set<unknown>): T[] {
  return rows.map((row) => {
    const r = row as Record<string, unknown>;
    if (r.table !== "listSpots" || !lists.has(r.listId)) return row;
    const { rank: _rank, ...rest } = r;
    return rest as T;
  });
}

/**
 * The bystander's rows a call may not change: all of them, but in a "change"
 * cell of a function listed in `changesBystander` her rows that were about its
 * mic before the call (`before`) and her rows in its `derived` tables; or, with
 * `ranksOnLeftLists`, in any cell the rank of her spots on the lists the call
 * removed spots from (`left`).
 */
function heldBystanderRows({
  rows,
  before,
  w,
  entry,
  expected,
  left,
}: {
  rows: Array<Record<string, unknown>>;
  before: Array<Record<string, unknown>>;
  w: World;
  entry: Entry;
  expected: string;
  left: Set<unknown>;
}): Array<Record<string, unknown>> {
  const exception = entry.changesBystander;
  if (exception === undefined) return rows;
  if ("ranksOnLeftLists" in exception) return withoutRanksOn(rows, left);
  if (expected !== "change") return rows;
  const mic = exception.mic(w) as string;
  const about = new Set(before.filter((r) => r.micId === mic || r.sceneItemId === mic).map((r) => r._id));
  const derived = exception.derived ?? [];
  return rows.filter((r) => !about.has(r._id) && !derived.includes(r.table as string));
}

useOfflineServer(NOW);

const functions = publicFunctions();

describe("authorization matrix", () => {
  // The world's accounts are made at NOW; the live list's minimum account age has its own tests.
  beforeEach(() => {
    vi.stubEnv("LIST_MIN_ACCOUNT_AGE_HOURS", "0");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  // A function without an entry fails here, so a new endpoint cannot ship without someone deciding who may call it.
  test("covers every public function, and only those", () => {
    const names = functions.map((f) => f.name);
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((n) => !(n in matrix))).toEqual([]);
    expect(Object.keys(matrix).filter((n) => !names.includes(n))).toEqual([]);
  });

  test("the third comedian has rows in every table the bystander check guards", async () => {
    // Otherwise "her rows are unchanged" would hold trivially for a table she has nothing in.
    const { third } = await snapshotWorld(await buildWorld());
    const tables = new Set(third.map((row) => row.table));
    for (const table of [
      "users",
      "profiles",
      "performances",
      "userStats",
      "performanceDays",
      "venueVisits",
      "favorites",
      "scheduleEntries",
      "checkIns",
      "micClaims",
      "problemReports",
      "sceneItems",
      "nightLists",
      "listSpots",
      "authSessions",
    ]) {
      expect(tables.has(table), `the third comedian has no ${table} row`).toBe(true);
    }
  });

  test.each(functions.filter((f) => f.name in matrix))("$name ($kind)", async ({ name, kind }) => {
    const entry = matrix[name];
    const roles: Role[] = ["owner", "anon", "other", "admin"];
    let shared: World | null = null;
    for (const role of roles) {
      const expected = entry[role];
      // Queries share one world; every write gets a fresh one.
      const w = kind === "query" ? (shared ??= await buildWorld()) : await buildWorld();
      const label = `${name} as ${role} should be "${expected}"`;
      const { all: allBefore, owner: ownerBefore, third: thirdBefore } = await snapshotWorld(w);
      const outcome = await attempt(() => callPublic(callerOf(w, role), { name, kind }, entry.args(w)));
      const { all: allAfter, owner: ownerAfter, third: thirdAfter } = await snapshotWorld(w);
      const left = leftLists(entry, allBefore, allAfter);
      const held = { before: thirdBefore, w, entry, expected, left };
      expect(
        heldBystanderRows({ rows: thirdAfter, ...held }),
        `${label}: the third comedian's rows must not change`,
      ).toEqual(heldBystanderRows({ rows: thirdBefore, ...held }));

      if (kind === "query" && role !== "admin" && outcome.ok) {
        const text = JSON.stringify(outcome.value ?? null);
        for (const marker of bystanderMarkers(w)) {
          expect(text.includes(marker), `${label}: its answer shows the third comedian's ${marker}`).toBe(false);
        }
      }

      if (expected === "nothing") {
        if (outcome.ok) {
          expect(
            kind === "query" && isEmptyAnswer(outcome.value),
            `${label}, but it answered ${JSON.stringify(outcome.value)}`,
          ).toBe(true);
        } else {
          expect(
            outcome.error instanceof ConvexError,
            `${label}: refused, but with ${describeError(outcome.error)}`,
          ).toBe(true);
        }
        expect(allAfter, `${label}: no row may change`).toEqual(allBefore);
        continue;
      }

      if (!outcome.ok) throw new Error(`${label}, but it failed: ${describeError(outcome.error)}`);
      if (expected === "read") {
        expect(isEmptyAnswer(outcome.value), `${label}, but the answer was empty`).toBe(false);
        // Where others only get their own answer, the owner's must show her data,
        // so that the "own" check above is not passing on an answer that never shows anyone's.
        if (kind === "query" && role === "owner" && entry.other === "own" && entry.ownerAnswerShows !== false) {
          const text = JSON.stringify(outcome.value);
          expect(
            privateMarkers(w).some((m) => text.includes(m)),
            `${label}: the answer should show the owner's data`,
          ).toBe(true);
        }
      }
      if (expected === "own") {
        if (kind === "query") {
          const text = JSON.stringify(outcome.value ?? null);
          for (const marker of privateMarkers(w)) {
            expect(text.includes(marker), `${label}: its answer shows the owner's ${marker}`).toBe(false);
          }
        }
        // (Her spots on a list another's deletion left may move up: `ranksOnLeftLists`.)
        expect(withoutRanksOn(ownerAfter, left), `${label}: the owner's rows must not change`).toEqual(
          withoutRanksOn(ownerBefore, left),
        );
      }
      if (expected === "change") {
        expect(ownerAfter, `${label}: the owner's rows should change`).not.toEqual(ownerBefore);
      }
    }
  });
});

describe("abuse limits", () => {
  test("sign-in attempts are limited per account: after 10 wrong passwords even the right one waits", async () => {
    const { exportPKCS8, generateKeyPair } = await import("jose");
    const keys = await generateKeyPair("RS256", { extractable: true });
    vi.stubEnv("JWT_PRIVATE_KEY", await exportPKCS8(keys.privateKey));
    const t = newTest();
    const signIn = (password: string, flow: "signIn" | "signUp" = "signIn") =>
      t.action(api.auth.signIn, { provider: "password", params: { email: "limit@example.com", password, flow } });
    await signIn("right-password", "signUp");

    for (let i = 0; i < 10; i++) {
      const wrong = await attempt(() => signIn(`wrong-${i}`));
      expect(!wrong.ok && wrong.error instanceof ConvexError && wrong.error.data).toMatchObject({
        code: "INVALID_INPUT",
        message: "Invalid email or password.",
      });
    }
    const limited = await attempt(() => signIn("right-password"));
    expect(!limited.ok && limited.error instanceof ConvexError && limited.error.data).toEqual({
      code: "RATE_LIMITED",
      message: "Too many failed attempts. Please try again later.",
      limit: "signInAccount",
      retryAfterMs: expect.any(Number),
    });
    // Another account is not affected.
    await t.action(api.auth.signIn, {
      provider: "password",
      params: { email: "other@example.com", password: "secret1", flow: "signUp" },
    });

    // The allowance refills (one attempt every 2 minutes, see authLockout.test.ts): after an hour the right password works.
    vi.setSystemTime(NOW + 60 * 60 * 1000);
    const later = await signIn("right-password");
    expect(later.tokens?.token).toBeTruthy();
  });

  test("check-ins are limited per account: the 11th within a minute is refused with a clear message", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 11; i++) {
      mics.push(await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00", ...VENUE, title: `Mic ${i}` }));
    }
    for (const mic of mics.slice(0, 10)) {
      await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, ...VENUE });
    }
    const refused = await attempt(() =>
      comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[10], ...VENUE }),
    );
    expect(!refused.ok && refused.error instanceof ConvexError && refused.error.data).toMatchObject({
      code: "RATE_LIMITED",
      message: "Too many check-ins. Please wait a minute and try again.",
    });
    // Per account: someone else checks in there at once; the comedian may again a minute later.
    await other.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[10], ...VENUE });
    vi.setSystemTime(NOW + 61_000);
    await comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mics[10], ...VENUE });
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("a profile photo must be an image under 5 MB: anything else is refused and deleted", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const upload = async (bytes: number, contentType: string) =>
      await t.run(async (ctx) => {
        const id = await ctx.storage.store(new Blob([new Uint8Array(bytes)], { type: contentType }));
        const db = ctx.db as unknown as { patch: (table: string, id: string, value: object) => Promise<void> };
        await db.patch("_storage", id, { contentType });
        return id;
      });
    const photoOf = async () => (await t.run(async (ctx) => ctx.db.get("profiles", comic.profileId)))?.photoStorageId;

    for (const [bytes, type] of [
      [100, "text/html"],
      [100, "application/javascript"],
      [5 * 1024 * 1024, "image/png"],
    ] as const) {
      const id = await upload(bytes, type);
      const result = await comic.asUser.mutation(api.profiles.setPhoto, { storageId: id });
      expect(result).toMatchObject({ ok: false });
      expect(await photoOf()).toBeUndefined();
      expect(await t.run(async (ctx) => ctx.db.system.get("_storage", id))).toBeNull();
    }
    const good = await upload(1024, "image/jpeg");
    expect(await comic.asUser.mutation(api.profiles.setPhoto, { storageId: good })).toMatchObject({ ok: true });
    expect(await photoOf()).toBe(good);
  });
});
