/**
 * The list drop, with the local backend's optimistic concurrency on: 300
 * comedians (each with their own token) sign up to one list (20 spots, 100
 * waitlist places) within one second over HTTP while 10 anonymous room screens
 * watch nightLists.current. Prints failures, the backend's conflicts and
 * retries, and the answer time per comedian (from the send until their
 * sign-up committed and the shared view showed their place, or showed the
 * list full without them): p50, p95, max. Checks what must hold and prints
 * each: every comedian placed or "full" in order of arrival (creation time),
 * capacity never exceeded in any view, every screen ending on the same view.
 * `npm run bench -- --only-drop` runs it alone; asserts nothing. With
 * BENCH_PROF=<dir> the backend writes its CPU profile (node --cpu-prof) there.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { importPKCS8, SignJWT } from "jose";
import { startBackend } from "../local-backend/harness";
import { cpuMsOf } from "./bursts";
import { convexDir, ms } from "./options";

const api = anyApi;
const COMEDIANS = 300;
const SPOTS = 20;
const WAITLIST = 100;
const SCREENS = 10;

type SpotSeen = { _id: string };
type View = { list: SpotSeen[]; waitlist: SpotSeen[]; taken: number };

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

export async function listDrop(): Promise<void> {
  const backend = await startBackend({
    functionsDir: convexDir,
    nodeArgs: process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [],
  });
  const clients: ConvexClient[] = [];
  try {
    const cli = async (args: string[]) => {
      const r = await backend.cli(args);
      if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return r.stdout.trim();
    };
    await cli(["env", "set", "LIST_MIN_ACCOUNT_AGE_HOURS", "0"]);
    const people = JSON.parse(
      await cli(["run", "fixtures:insertComedians", JSON.stringify({ prefix: "Drop Comic", count: COMEDIANS + 1 })]),
    ) as Array<{ userId: string; sessionId: string }>;
    // The backend's own signing key: the bench issues the tokens Convex Auth would.
    const key = await importPKCS8(await cli(["env", "get", "JWT_PRIVATE_KEY"]), "RS256");
    const issuer = await cli(["env", "get", "CONVEX_SITE_URL"]);
    const token = async (p: { userId: string; sessionId: string }) =>
      await new SignJWT({ sub: `${p.userId}|${p.sessionId}` })
        .setProtectedHeader({ alg: "RS256" })
        .setIssuedAt()
        .setIssuer(issuer)
        .setAudience("convex")
        .setExpirationTime("1h")
        .sign(key);
    const hostPerson = people[COMEDIANS];
    await cli([
      "run",
      "admin:setAdmin",
      JSON.stringify({ email: `drop-comic-${COMEDIANS + 1}@bench.test`, isAdmin: true }),
    ]);
    const host = new ConvexHttpClient(backend.url);
    host.setAuth(await token(hostPerson));
    const now = new Date();
    const micId = JSON.parse(
      await cli([
        "run",
        "fixtures:insertSceneItem",
        JSON.stringify({
          title: "Drop Mic",
          venueName: "Drop Room",
          city: "New York",
          type: "open_mic",
          dayOfWeek: now.getUTCDay(),
          startTimeLocal: "23:59",
          recurrence: "weekly",
          timeZone: "UTC",
        }),
      ]),
    ) as string;
    const listId = (await host.mutation(api.nightLists.open, {
      micId,
      date: now.toISOString().slice(0, 10),
      spots: SPOTS,
      waitlistSpots: WAITLIST,
      lightMinutes: 1,
      mode: "first_come",
      signupOpensAt: Date.now() - 60_000,
    })) as string;

    // The room screens: every view they get, with when.
    const views: Array<Array<{ at: number; view: View }>> = Array.from({ length: SCREENS }, () => []);
    for (let i = 0; i < SCREENS; i++) {
      const client = new ConvexClient(backend.url, { unsavedChangesWarning: false, logger: false });
      clients.push(client);
      client.onUpdate(api.nightLists.current, { micId }, (value: { list: View | null }) => {
        if (value.list) views[i].push({ at: performance.now(), view: value.list });
      });
    }
    while (views.some((v) => v.length === 0)) await new Promise((r) => setTimeout(r, 10));

    const comedians = await Promise.all(
      people.slice(0, COMEDIANS).map(async (p) => {
        const c = new ConvexHttpClient(backend.url);
        c.setAuth(await token(p));
        return c;
      }),
    );
    const statsOf = async () => {
      const adminKey = fs.readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
      const r = await fetch(`${backend.url}/_local/stats`, {
        method: "POST",
        headers: { Authorization: `Convex ${adminKey}` },
      });
      const stats = (await r.json()) as {
        occ?: { conflicts: number; retries: number; failures: number; enabled: boolean };
        queryRuns: number;
        commits: number;
        storage?: { logFsyncs?: number };
        httpMutations?: { answered: number; totalMs: number };
        logWaits?: { mutations: number; totalMs: number };
      };
      const occ = stats.occ ?? { conflicts: NaN, retries: NaN, failures: NaN, enabled: true };
      return {
        ...occ,
        queryRuns: stats.queryRuns,
        commits: stats.commits,
        fsyncs: stats.storage?.logFsyncs ?? NaN,
        answered: stats.httpMutations?.answered ?? NaN,
        answeredMs: stats.httpMutations?.totalMs ?? NaN,
        logWaitMs: stats.logWaits?.totalMs ?? NaN,
      };
    };
    const before = await statsOf();

    // The drop: one sign-up every 1000/300 ms.
    const sent: number[] = [];
    const committed: Array<number | null> = [];
    const spotIds: Array<string | null> = [];
    let failures = 0;
    const cpuStart = cpuMsOf(backend.pid);
    const benchCpuStart = process.cpuUsage();
    const loadBefore = os.loadavg()[0];
    const t0 = performance.now();
    await Promise.all(
      comedians.map(async (client, i) => {
        await new Promise((r) => setTimeout(r, (i * 1000) / COMEDIANS));
        sent[i] = performance.now();
        try {
          const { spotId } = (await client.mutation(api.nightLists.signUp, { listId })) as { spotId: string };
          spotIds[i] = spotId;
          committed[i] = performance.now();
        } catch (error) {
          failures++;
          spotIds[i] = null;
          committed[i] = null;
          console.log(`  sign-up ${i} failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
        }
      }),
    );
    const burstMs = performance.now() - t0;
    const expectedShown = Math.min(COMEDIANS - failures, SPOTS + WAITLIST);
    const deadline = Date.now() + 60_000;
    const shownCount = (v: View) => v.list.length + v.waitlist.length;
    while (views.some((v) => v.length === 0 || shownCount(v.at(-1)!.view) < expectedShown) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const settledMs = performance.now() - t0;
    const benchCpu = process.cpuUsage(benchCpuStart);
    const after = await statsOf();
    const cpuMs = cpuMsOf(backend.pid) - cpuStart;

    // Answer times: committed, and screen 0 showed the place (or a full list without them).
    const answers: number[] = [];
    for (let i = 0; i < COMEDIANS; i++) {
      const id = spotIds[i];
      if (id === null || committed[i] === null) continue;
      const seen = views[0].find(
        ({ view }) =>
          [...view.list, ...view.waitlist].some((s) => s._id === id) || shownCount(view) >= SPOTS + WAITLIST,
      );
      if (seen) answers.push(Math.max(seen.at, committed[i]!) - sent[i]);
    }

    // What must hold.
    const finalViews = views.map((v) => JSON.stringify(v.at(-1)!.view));
    const sameEnd = finalViews.every((v) => v === finalViews[0]);
    const overCapacity = views
      .flat()
      .filter(({ view }) => view.taken > SPOTS || view.waitlist.length > WAITLIST).length;
    const exported = JSON.parse(await cli(["export"])) as { tables: Record<string, Array<Record<string, unknown>>> };
    const created = new Map(
      (exported.tables.listSpots ?? [])
        .filter((s) => s.listId === listId)
        .map((s) => [s._id as string, s._creationTime as number]),
    );
    const finalView = views[0].at(-1)!.view;
    const shown = [...finalView.list, ...finalView.waitlist].map((s) => s._id);
    const shownTimes = shown.map((id) => created.get(id)!);
    const inOrder = shownTimes.every((t, i) => i === 0 || shownTimes[i - 1] <= t);
    const shownSet = new Set(shown);
    const full = spotIds.filter((id): id is string => id !== null && !shownSet.has(id));
    const fullAfterShown = full.every((id) => created.get(id)! >= shownTimes.at(-1)!);
    // A comedian's first answer that a later view changed (an earlier arrival committing after it).
    let changed = 0;
    for (const id of spotIds) {
      if (id === null) continue;
      const section = (v: View) =>
        v.list.some((s) => s._id === id) ? "list" : v.waitlist.some((s) => s._id === id) ? "waitlist" : "none";
      const first = views[0].find(({ view }) => section(view) !== "none")?.view;
      if (first && section(first) !== section(finalView)) changed++;
    }

    console.log(
      `\nList drop: ${COMEDIANS} comedians sign up to one list (${SPOTS} spots, ${WAITLIST} waitlist) within ` +
        `${(burstMs / 1000).toFixed(2)} s over HTTP, ${SCREENS} room screens watching; optimistic concurrency ` +
        `${after.enabled === false ? "off" : "on"}`,
    );
    console.log(
      `  failures ${failures}; conflicts ${after.conflicts - before.conflicts}, retries ${after.retries - before.retries}, ` +
        `failed past the budget ${after.failures - before.failures}; ${after.commits - before.commits} commits in ` +
        `${after.fsyncs - before.fsyncs} fsyncs of the data log, ` +
        `${after.queryRuns - before.queryRuns} query runs for the screens`,
    );
    console.log(
      `  placed ${finalView.list.length} on the list, ${finalView.waitlist.length} on the waitlist, ${full.length} told "full"; ` +
        `answer p50 ${ms(pct(answers, 0.5))}, p95 ${ms(pct(answers, 0.95))}, max ${ms(Math.max(...answers))} (${answers.length} answers)`,
    );
    console.log(
      `  in order of arrival: ${inOrder && fullAfterShown ? "yes" : "NO"}; capacity exceeded in ${overCapacity} of ` +
        `${views.flat().length} views; screens end on the same view: ${sameEnd ? "yes" : "NO"}; first answers later changed: ${changed}`,
    );
    // Where a sign-up's time went: inside the backend's HTTP handler (of it, waiting for the log's
    // fsync), the rest before the handler ran (queued connections, the client) or after it answered.
    const handled = after.answered - before.answered;
    const inHandler = (after.answeredMs - before.answeredMs) / handled;
    const logWait = (after.logWaitMs - before.logWaitMs) / handled;
    const meanAnswer = answers.reduce((a, b) => a + b, 0) / answers.length;
    console.log(
      `  a sign-up's time on average: ${ms(meanAnswer)} from the send to the screen; ${ms(inHandler)} of it in the ` +
        `backend's handler, of which ${ms(logWait)} waiting for the data log's fsync; the rest before the ` +
        `handler ran or after it answered (this bench's clients, 300 senders and the screens in one process, ` +
        `used ${ms((benchCpu.user + benchCpu.system) / 1000)} of CPU meanwhile)`,
    );
    // CPU, unlike the times, hardly changes with the machine's load: the work itself.
    console.log(
      `  backend CPU from the first send until every screen settled: ${ms(cpuMs)} (${ms(cpuMs / COMEDIANS)} a sign-up), ` +
        `${((100 * cpuMs) / settledMs).toFixed(0)}% of those ${(settledMs / 1000).toFixed(2)} s; load average ` +
        `${loadBefore.toFixed(1)} at the first send, ${os.loadavg()[0].toFixed(1)} at the end (${os.cpus().length} cores)`,
    );
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await backend.dispose();
  }
}
