/**
 * What a crowd does at once, through the app's own functions on a running
 * backend with optimistic concurrency on (Convex's retry budget): 100
 * comedians checking in at one mic, 100 logging a set at one mic, and the
 * site-wide sign-up and sign-in buckets taken by 50 strangers at once. Each
 * burst must succeed whole (no OptimisticConcurrencyControlFailure), and what
 * it counts must be exact and reach a live subscriber.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { cliOk, signedInComedians } from "./crowd";
import { type Backend, repoRoot, startBackend, waitFor } from "./harness";
import { backendStats } from "./rawClient";

const CROWD = 100;
const NYC = { lat: 40.7128, lng: -74.006 };

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex"), startTimeoutMs: 120_000 });
  await cliOk(backend, ["env", "set", "VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0"]);
  await cliOk(backend, ["env", "set", "SIGN_UP_LIMIT_PER_MINUTE", "1000"]);
}, 180_000);

afterAll(async () => {
  await backend?.dispose();
});

/** A mic at New York whose check-in window is open now (it starts this minute, UTC). */
async function openMic(title: string): Promise<string> {
  const now = new Date();
  const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
  return JSON.parse(
    await cliOk(backend, [
      "run",
      "fixtures:insertSceneItem",
      JSON.stringify({
        title,
        venueName: `${title} Room`,
        city: "New York",
        type: "open_mic",
        latitude: NYC.lat,
        longitude: NYC.lng,
        dayOfWeek: now.getUTCDay(),
        startTimeLocal: hhmm,
        recurrence: "weekly",
        timeZone: "UTC",
      }),
    ]),
  ) as string;
}

type Occ = { conflicts: number; retries: number; failures: number; byTable: Record<string, number> };
const occ = async () => (await backendStats(backend)).occ as Occ;

/** Every promise's outcome; the rejections' messages (the first few) for the assertion's text. */
async function settle<T>(calls: Array<Promise<T>>): Promise<{ ok: T[]; errors: string[] }> {
  const results = await Promise.allSettled(calls);
  return {
    ok: results.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === "fulfilled").map((r) => r.value),
    errors: results
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => String(r.reason instanceof Error ? r.reason.message : r.reason).slice(0, 300)),
  };
}

describe("bursts through the real backend with optimistic concurrency on", () => {
  test("100 comedians check in at one mic at once: all succeed; every watcher sees the exact count and Verified", async () => {
    const micId = await openMic("Check-in Burst Mic");
    const crowd = await signedInComedians(backend, "Check Burst", CROWD);
    type Seen = { checkInCount: number; verifiedCheckIns30d: number; verificationExpiresAt?: number } | null;
    const seen: Seen[] = Array.from({ length: 5 }, () => null);
    seen.forEach((_, i) => backend.client().onUpdate(api.scene.get, { id: micId }, (item) => (seen[i] = item as Seen)));
    await waitFor(() => seen.every((s) => s !== null));
    const before = await occ();

    const { ok, errors } = await settle(
      crowd.map(({ client }) =>
        client.mutation(api.checkIns.checkIn, { sceneItemId: micId as never, latitude: NYC.lat, longitude: NYC.lng }),
      ),
    );
    const after = await occ();
    expect(errors, `conflicts by table: ${JSON.stringify(after.byTable)}`).toEqual([]);
    expect(ok).toHaveLength(CROWD);
    expect(after.failures - before.failures).toBe(0);

    // Each watcher converges on the exact count, verified by every comedian (accounts of any age verify here).
    await waitFor(() => seen.every((s) => s!.checkInCount === CROWD && s!.verifiedCheckIns30d === CROWD), {
      timeoutMs: 60_000,
      message: `every watcher to show ${CROWD} check-ins, all verifying (last seen ${JSON.stringify(seen)})`,
    });
    for (const s of seen) expect(s!.verificationExpiresAt).toBeGreaterThan(Date.now());
    const exported = JSON.parse(await cliOk(backend, ["export"])) as { tables: Record<string, Array<any>> };
    expect(exported.tables.checkIns.filter((c) => c.sceneItemId === micId)).toHaveLength(CROWD);
    expect((exported.tables.micCheckInQueue ?? []).filter((q) => q.micId === micId)).toEqual([]);
  }, 300_000);

  test("100 comedians log a set at one mic at once: all succeed; the community hours count every minute", async () => {
    const micId = await openMic("Set Burst Mic");
    const crowd = await signedInComedians(backend, "Set Burst", CROWD);
    const watcher = backend.client();
    let hours: number | null = null;
    watcher.onUpdate(api.community.stats, {}, (s) => (hours = s.hoursLogged));
    await waitFor(() => hours !== null);
    const hoursBefore = hours!;
    const before = await occ();

    const { ok, errors } = await settle(
      crowd.map(({ client }) =>
        client.mutation(api.performances.log, {
          minutes: 60,
          performedAt: Date.now() - 60_000,
          sceneItemId: micId as never,
          tags: [],
        }),
      ),
    );
    const after = await occ();
    expect(errors, `conflicts by table: ${JSON.stringify(after.byTable)}`).toEqual([]);
    expect(ok).toHaveLength(CROWD);
    expect(after.failures - before.failures).toBe(0);
    await waitFor(() => hours === hoursBefore + CROWD, { timeoutMs: 60_000, message: "the community hours" });
  }, 300_000);

  for (const limit of ["signUp", "signInFailed"] as const) {
    test(`50 strangers take the site-wide ${limit} bucket at once: none fails on a write conflict`, async () => {
      const adminKey = fs.readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
      const take = async (i: number) => {
        const r = await fetch(`${backend.url}/_local/run`, {
          method: "POST",
          headers: { Authorization: `Convex ${adminKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({
            path: "fixtures:takeSiteWideLimit",
            args: { limit, email: `${limit.toLowerCase()}-${i}@burst.test` },
          }),
        });
        const body = (await r.json()) as { status: string; errorMessage?: string };
        if (body.status !== "success") throw new Error(body.errorMessage);
      };
      const before = await occ();
      const { errors } = await settle(Array.from({ length: 50 }, (_, i) => take(i)));
      const after = await occ();
      // signInFailed holds 60 a minute: 50 fit whether it is one row or shards.
      expect(errors, `conflicts by table: ${JSON.stringify(after.byTable)}`).toEqual([]);
      expect(after.failures - before.failures).toBe(0);
    }, 120_000);
  }
});
