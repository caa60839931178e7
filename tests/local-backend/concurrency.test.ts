/**
 * Concurrency through real clients (issue 9, item 3): the local backend runs the
 * app's own convex/ folder; comedians sign up through @convex-dev/auth's
 * password flow and talk to it over the WebSocket sync protocol, as browsers do.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ConvexClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { computeStreaks } from "@convex/lib/streaks";
import { repoRoot, startBackend, waitFor, type Backend } from "./harness";
import { backendStats } from "./rawClient";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A point in Manhattan; every mic here sits exactly on it. */
const VENUE = { lat: 40.7291, lng: -73.9965 };

let backend: Backend;
/** Whether convex/invariants.ts (written alongside) was there when the backend loaded. */
let hasInvariants = false;

beforeAll(async () => {
  hasInvariants = fs.existsSync(path.join(repoRoot, "convex/invariants.ts"));
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex") });
  // More accounts sign up here in a minute than the site-wide sign-up limit allows a real deployment.
  await backend.cli(["env", "set", "SIGN_UP_LIMIT_PER_MINUTE", "1000"]);
  // The crowd signs up minutes before checking in; production counts only day-old accounts toward verification.
  await backend.cli(["env", "set", "VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0"]);
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
});

type Comedian = { email: string; client: ConvexClient; token: string };

/** Signs a comedian up through `auth:signIn` (flow signUp) and returns a
 * ConvexClient authenticated with the issued token. */
async function signUp(email: string): Promise<Comedian> {
  const http = backend.httpClient();
  const result = (await http.action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "punchline-42", flow: "signUp" },
  })) as { tokens?: { token: string } | null };
  const token = result.tokens?.token;
  if (!token) throw new Error(`sign-up of ${email} issued no token`);
  return { email, token, client: await authedClient(token) };
}

async function authedClient(token: string): Promise<ConvexClient> {
  const client = backend.client();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no auth verdict in 30 s")), 30_000);
    client.setAuth(
      async () => token,
      (ok) => {
        clearTimeout(timer);
        if (ok) resolve();
        else reject(new Error("token refused"));
      },
    );
  });
  return client;
}

/** Signs up `count` comedians, a few at a time (password hashing is CPU-bound). */
async function signUpMany(prefix: string, count: number): Promise<Comedian[]> {
  const out: Comedian[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) => signUp(`${prefix}-${i + j}@example.com`));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** Runs a function (internal ones too) through the backend CLI and parses its JSON result. */
async function run<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await backend.cli(["run", name, JSON.stringify(args)]);
  if (result.code !== 0) throw new Error(`run ${name} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as T;
}

/** A mic whose check-in window is open right now (it starts this minute, in UTC). */
async function createOpenMic(title: string): Promise<Id<"sceneItems">> {
  const now = new Date();
  const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
  return await run<Id<"sceneItems">>("fixtures:insertSceneItem", {
    title,
    venueName: `${title} Room`,
    city: "New York",
    type: "open_mic",
    latitude: VENUE.lat,
    longitude: VENUE.lng,
    dayOfWeek: now.getUTCDay(),
    startTimeLocal: hhmm,
    recurrence: "weekly",
    timeZone: "UTC",
  });
}

type Snapshot = {
  tables: Record<string, Array<Record<string, unknown>>>;
  /** Component name -> table -> documents. */
  components?: Record<string, Record<string, Array<Record<string, unknown>>>>;
};

/** Every document, read through the CLI's `export` of the running backend. */
async function exportSnapshot(): Promise<Snapshot> {
  const result = await backend.cli(["export"]);
  if (result.code !== 0) throw new Error(`export failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Snapshot;
}

const rows = (snapshot: Snapshot, table: string) => snapshot.tables[table] ?? [];

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

describe("concurrency through real clients", () => {
  test("50 comedians check in at one mic at the same moment", async () => {
    const comedians = await signUpMany("crowd", 50);
    const micId = await createOpenMic("Crowded Mic");

    const results = await Promise.all(
      comedians.map(({ client }) =>
        client.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: VENUE.lat, longitude: VENUE.lng }),
      ),
    );
    expect(results.every((r) => r.success)).toBe(true);
    // Each check-in only queues itself (no two conflict); a fold about once a second counts them
    // into the mic row, which ends on exactly 50 and verified.
    const mic = await waitFor(
      async () => {
        const row = await comedians[0].client.query(api.scene.get, { id: micId });
        return row !== null && row.checkInCount >= 50 ? row : null;
      },
      { timeoutMs: 60_000, intervalMs: 250, message: "the mic's row counting 50 check-ins" },
    );
    expect(mic).not.toBeNull();
    expect(mic!.checkInCount).toBe(50);
    expect(mic!.verifiedCheckIns30d).toBe(50);
    expect(mic!.lastVerifiedAt).toBeDefined();
    expect(mic!.verificationExpiresAt).toBe(mic!.lastVerifiedAt! + 30 * DAY_MS);

    const snapshot = await exportSnapshot();
    const checkIns = rows(snapshot, "checkIns").filter((c) => c.sceneItemId === micId);
    expect(checkIns).toHaveLength(50);
    expect(new Set(checkIns.map((c) => c.userId)).size).toBe(50);

    // A second simultaneous round changes nothing: each comedian is already in.
    const again = await Promise.allSettled(
      comedians
        .slice(0, 10)
        .map(({ client }) =>
          client.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: VENUE.lat, longitude: VENUE.lng }),
        ),
    );
    for (const outcome of again) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(ConvexError);
      expect((error as ConvexError<{ message: string }>).data.message).toBe("Already checked in");
    }
    expect((await comedians[0].client.query(api.scene.get, { id: micId }))!.checkInCount).toBe(50);
  }, 180_000);

  test("one comedian logs 20 sets at once from two tabs", async () => {
    const me = await signUp("two-tabs@example.com");
    const otherTab = await authedClient(me.token);
    const micId = await createOpenMic("Two Tab Mic");

    const base = Date.now() - 60_000;
    // Days ago of each set: runs of 0-3, 5-7 and 10-11 days ago, some days twice.
    const daysAgo = [0, 0, 1, 2, 2, 3, 5, 5, 6, 7, 10, 11, 11, 11, 3, 1, 0, 6, 7, 10];
    const sets = daysAgo.map((d, i) => ({
      minutes: 3 + (i % 7),
      performedAt: base - d * DAY_MS - i * 1000,
      tags: [],
      timeZone: "UTC",
      ...(i % 2 === 0 ? { sceneItemId: micId } : { venueName: `Back Room ${i % 3}` }),
    }));
    const outcomes = await Promise.all(
      sets.map((set, i) => (i % 2 === 0 ? me.client : otherTab).mutation(api.performances.log, set)),
    );
    expect(new Set(outcomes.map((o) => o.performanceId)).size).toBe(20);

    const today = utcDate(Date.now());
    const stats = await me.client.query(api.stats.mine, { today });
    const expectedMinutes = sets.reduce((sum, s) => sum + s.minutes, 0);
    const streaks = computeStreaks(
      sets.map((s) => utcDate(s.performedAt)),
      today,
    );
    expect(stats.totalSets).toBe(20);
    expect(stats.totalMinutes).toBe(expectedMinutes);
    expect(stats.currentStreak).toBe(streaks.current);
    expect(stats.longestStreak).toBe(streaks.longest);
    // The largest total any one response reported is the final total.
    expect(Math.max(...outcomes.map((o) => o.totalMinutes))).toBe(expectedMinutes);

    const snapshot = await exportSnapshot();
    const myUserId = rows(snapshot, "performances").find((p) => p._id === outcomes[0].performanceId)!.userId;
    const mySets = rows(snapshot, "performances").filter((p) => p.userId === myUserId);
    expect(mySets).toHaveLength(20);
    const days = rows(snapshot, "performanceDays").filter((d) => d.userId === myUserId);
    expect(days.map((d) => d.date).sort()).toEqual([...new Set(sets.map((s) => utcDate(s.performedAt)))].sort());
    for (const day of days) {
      expect(day.sets).toBe(sets.filter((s) => utcDate(s.performedAt) === day.date).length);
    }
  }, 120_000);

  test("30 comedians log 60 sets at the same moment: the community total counts every minute, with no hot row", async () => {
    const comedians = await signUpMany("logger", 30);
    const micId = await createOpenMic("Busy Mic");
    const minutesLogged = (snapshot: Snapshot) =>
      (snapshot.components?.shardedCounter?.counters ?? [])
        .filter((c) => c.name === "minutesLogged")
        .map((c) => c.value as number);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const before = sum(minutesLogged(await exportSnapshot()));
    const hotBefore = (await backendStats(backend)).contention.warnings as number;

    const sets = comedians.flatMap(({ client }, i) =>
      [0, 1].map((k) => ({
        client,
        set: {
          minutes: 1 + ((i * 2 + k) % 9),
          performedAt: Date.now() - (k + 1) * 60_000,
          tags: [],
          timeZone: "UTC",
          sceneItemId: micId,
        },
      })),
    );
    await Promise.all(sets.map(({ client, set }) => client.mutation(api.performances.log, set)));

    const after = minutesLogged(await exportSnapshot());
    expect(sum(after) - before).toBe(sum(sets.map(({ set }) => set.minutes)));
    // The total is spread over shard rows, not one row every set writes ...
    expect(after.length).toBeGreaterThan(1);
    // ... so the burst made no document hot (a single row would have been written 60 times in a second).
    const stats = await backendStats(backend);
    expect(stats.contention.warnings).toBe(hotBefore);
  }, 180_000);

  test("an admin deletes a mic while comedians schedule, favourite and check in to it", async () => {
    const admin = await signUp("delete-admin@example.com");
    await run("admin:setAdmin", { email: admin.email, isAdmin: true });
    const comedians = await signUpMany("racer", 20);
    const micId = await createOpenMic("Doomed Mic");

    const joins = comedians.flatMap(({ client }) => [
      client.mutation(api.schedule.add, { sceneItemId: micId }),
      client.mutation(api.favorites.add, { sceneItemId: micId }),
      client.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: VENUE.lat, longitude: VENUE.lng }),
    ]);
    // The delete lands while the others are in flight.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const deletion = admin.client.mutation(api.admin.deleteMic, { id: micId });
    const settledJoins = await Promise.allSettled(joins);
    await deletion;
    const later = await Promise.allSettled(
      comedians.flatMap(({ client }) => [
        client.mutation(api.schedule.add, { sceneItemId: micId }),
        client.mutation(api.favorites.add, { sceneItemId: micId }),
      ]),
    );
    const outcomes = [...settledJoins, ...later];

    // Whatever lost the race failed with the app's own error, nothing else.
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") continue;
      expect(outcome.reason).toBeInstanceOf(ConvexError);
      expect((outcome.reason as ConvexError<{ message: string }>).data.message).toBe("Event not found");
    }
    // Joins sent after the delete was acknowledged must all have failed.
    expect(later.every((o) => o.status === "rejected")).toBe(true);

    expect(await admin.client.query(api.scene.get, { id: micId })).toBeNull();
    const snapshot = await exportSnapshot();
    expect(rows(snapshot, "sceneItems").some((m) => m._id === micId)).toBe(false);
    for (const table of ["scheduleEntries", "favorites", "checkIns"]) {
      expect(rows(snapshot, table).filter((r) => r.sceneItemId === micId)).toEqual([]);
    }
    // The shared invariant check (counters, stats, references) over everything
    // these tests did, when the backend loaded it.
    if (hasInvariants) {
      const { ok, problems } = await run<{ ok: boolean; problems: string[] }>("invariants:checkAll", {});
      expect(problems.filter((p) => p.includes(micId))).toEqual([]);
      expect({ ok, problems }).toEqual({ ok: true, problems: [] });
    }
  }, 180_000);
});
