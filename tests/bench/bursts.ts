/**
 * Crowd bursts at one mic, with the local backend's optimistic concurrency on:
 * 100 comedians (each with their own token) check in at one mic within one
 * second over HTTP while 5 screens watch the mic (scene.get), then 100 log a
 * set there within one second while 5 screens watch the community figures
 * (community.stats). Prints failures, the backend's conflicts and retries (by
 * table), the answer time per comedian (send to committed): p50, p95, max,
 * how long after the last answer every screen showed the exact count (and,
 * for check-ins, Verified), each beside its target, and the backend process's
 * CPU time from the first send until then (what a loaded machine does not
 * change much, unlike the times).
 * `npm run bench -- --only-bursts` runs it alone; asserts nothing.
 */
import fs from "node:fs";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import { cliOk, signedInComedians } from "../local-backend/crowd";
import { type Backend, startBackend } from "../local-backend/harness";
import { backendStats } from "../local-backend/rawClient";
import { convexDir, ms, NYC } from "./options";

const api = anyApi;
const CROWD = 100;
const SCREENS = 5;
/** Targets: no failure, every answer within a second, every screen exact within two (the fold runs each second). */
const ANSWER_P95_TARGET_MS = 1000;
const CONVERGE_TARGET_MS = 2000;

/** CPU time (user + system) of a process in ms, from /proc (Linux), or NaN. */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

type Occ = { conflicts: number; retries: number; failures: number; byTable: Record<string, number> };

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** What one burst did: per-comedian answer times, failures, the backend's OCC figures over it. */
async function burst(
  backend: Backend,
  send: (i: number) => Promise<unknown>,
): Promise<{
  answers: number[];
  failures: string[];
  occ: Occ;
  lastAnswer: number;
  burstMs: number;
  cpuStart: number;
}> {
  const occOf = async () => (await backendStats(backend)).occ as Occ;
  const before = await occOf();
  const answers: number[] = [];
  const failures: string[] = [];
  let lastAnswer = 0;
  const cpuStart = cpuMsOf(backend.pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CROWD }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / CROWD));
      const sent = performance.now();
      try {
        await send(i);
        lastAnswer = performance.now();
        answers.push(lastAnswer - sent);
      } catch (error) {
        failures.push(error instanceof Error ? error.message.slice(0, 200) : String(error));
      }
    }),
  );
  const burstMs = performance.now() - t0;
  const after = await occOf();
  const byTable: Record<string, number> = {};
  for (const [table, n] of Object.entries(after.byTable)) {
    const d = n - (before.byTable[table] ?? 0);
    if (d > 0) byTable[table] = d;
  }
  const occ = {
    conflicts: after.conflicts - before.conflicts,
    retries: after.retries - before.retries,
    failures: after.failures - before.failures,
    byTable,
  };
  return { answers, failures, occ, lastAnswer, burstMs, cpuStart };
}

/** Waits until every screen's latest value passes `done`; ms after `since`, or null past a minute. */
async function converged<T>(seen: Array<T | null>, done: (value: T) => boolean, since: number): Promise<number | null> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (seen.every((s) => s !== null && done(s))) return Math.max(0, performance.now() - since);
    await new Promise((r) => setTimeout(r, 10));
  }
  return null;
}

function report(
  title: string,
  r: Awaited<ReturnType<typeof burst>>,
  convergeMs: number | null,
  what: string,
  cpuMs: number,
): void {
  const p95 = pct(r.answers, 0.95);
  console.log(`\n${title} within ${(r.burstMs / 1000).toFixed(2)} s over HTTP, ${SCREENS} screens watching`);
  console.log(
    `  failures ${r.failures.length} (target 0); conflicts ${r.occ.conflicts} ${JSON.stringify(r.occ.byTable)}, ` +
      `retries ${r.occ.retries}, failed past the budget ${r.occ.failures}`,
  );
  for (const f of r.failures.slice(0, 3)) console.log(`  failed: ${f}`);
  console.log(
    `  answer p50 ${ms(pct(r.answers, 0.5))}, p95 ${ms(p95)} (target < ${ms(ANSWER_P95_TARGET_MS)}), ` +
      `max ${ms(Math.max(...r.answers))} (${r.answers.length} answers)`,
  );
  console.log(
    `  every screen showed ${what} ${convergeMs === null ? "NOT within a minute" : `${ms(convergeMs)} after the last answer`} ` +
      `(target < ${ms(CONVERGE_TARGET_MS)})`,
  );
  console.log(`  backend CPU from the first send until then: ${ms(cpuMs)} (${ms(cpuMs / CROWD)} a call)`);
}

export async function bursts(): Promise<void> {
  console.log("\n== Crowd bursts at one mic (optimistic concurrency on) ==");
  const backend = await startBackend({ functionsDir: convexDir, startTimeoutMs: 120_000 });
  const clients: ConvexClient[] = [];
  try {
    await cliOk(backend, ["env", "set", "VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0"]);
    const now = new Date();
    const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}:${String(now.getUTCMinutes()).padStart(2, "0")}`;
    // Its check-in window is open now: it starts this minute (UTC).
    const micId = JSON.parse(
      await cliOk(backend, [
        "run",
        "fixtures:insertSceneItem",
        JSON.stringify({
          title: "Burst Mic",
          venueName: "Burst Room",
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
    const crowd = await signedInComedians(backend, "Burst Comic", CROWD);
    const watch = <T>(query: unknown, args: Record<string, unknown>): Array<T | null> => {
      const seen: Array<T | null> = Array.from({ length: SCREENS }, () => null);
      for (let i = 0; i < SCREENS; i++) {
        const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
        clients.push(client);
        client.onUpdate(query as never, args as never, (value: T) => (seen[i] = value));
      }
      return seen;
    };

    type Mic = { checkInCount: number; verifiedCheckIns30d: number };
    const mics = watch<Mic>(api.scene.get, { id: micId });
    while (mics.some((m) => m === null)) await new Promise((r) => setTimeout(r, 10));
    const checkIns = await burst(backend, (i) =>
      crowd[i].client.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: NYC.lat, longitude: NYC.lng }),
    );
    const checkInsShown = await converged(
      mics,
      (m) => m.checkInCount === checkIns.answers.length && m.verifiedCheckIns30d === checkIns.answers.length,
      checkIns.lastAnswer,
    );
    report(
      `Check-in burst: ${CROWD} comedians check in at one mic`,
      checkIns,
      checkInsShown,
      "the count and Verified",
      cpuMsOf(backend.pid) - checkIns.cpuStart,
    );
    console.log(JSON.stringify((await backendStats(backend)).occ), backend.outputSince(0).slice(-8000));

    type Community = { hoursLogged: number };
    const community = watch<Community>(api.community.stats, {});
    while (community.some((c) => c === null)) await new Promise((r) => setTimeout(r, 10));
    const hoursBefore = community[0]!.hoursLogged;
    const sets = await burst(backend, (i) =>
      crowd[i].client.mutation(api.performances.log, {
        minutes: 60,
        performedAt: Date.now() - 60_000,
        sceneItemId: micId,
        tags: [],
      }),
    );
    const setsShown = await converged(
      community,
      (c) => c.hoursLogged === hoursBefore + sets.answers.length,
      sets.lastAnswer,
    );
    report(
      `Set-logging burst: ${CROWD} comedians log an hour at one mic`,
      sets,
      setsShown,
      "the community hours",
      cpuMsOf(backend.pid) - sets.cpuStart,
    );
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await backend.dispose();
  }
}
