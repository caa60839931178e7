import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { api, backendStats, flag, percentile, rssMiB, startBackend, stopBackend } from "./common";

/**
 * `--fanout [--mics 1000 --scene 50 --checkins 20]`: one subscriber (its own
 * `ConvexClient`) to each mic's event page and `--scene` subscribers to the
 * scene list; check-ins at random mics. Prints the query re-runs per write
 * (from the backend's `/_local/stats`) and, per check-in, the time from the
 * writer's mutation response to the last of its watchers (the mic's page and
 * the scene list) seeing it.
 */
export async function fanout(): Promise<void> {
  const MICS = Number(flag("mics", "1000"));
  const SCENE = Number(flag("scene", "50"));
  const CHECKINS = Number(flag("checkins", "20"));
  const backend = await startBackend({ processEnv: { LOCAL_BACKEND_TRACE: "1" } });
  const clients: ConvexClient[] = [];
  try {
    const writer = new ConvexHttpClient(backend.url);
    const mics: string[] = [];
    for (let from = 0; from < MICS; from += 500) {
      mics.push(...((await writer.mutation(api.scene.seed, { from, count: Math.min(500, MICS - from) })) as string[]));
    }
    // Latest value seen by each subscriber, and when each value was first seen.
    const micSeen: Map<number, number>[] = mics.map(() => new Map());
    const sceneSeen: Map<number, number>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < MICS; i++) {
      const client = new ConvexClient(backend.url, { unsavedChangesWarning: false });
      clients.push(client);
      client.onUpdate(api.scene.event, { mic: mics[i] }, (value: any) => {
        if (!micSeen[i].has(value.checkIns)) micSeen[i].set(value.checkIns, performance.now());
      });
    }
    for (let i = 0; i < SCENE; i++) {
      const client = new ConvexClient(backend.url, { unsavedChangesWarning: false });
      clients.push(client);
      const seen = new Map<number, number>();
      sceneSeen.push(seen);
      client.onUpdate(api.scene.list, {}, (value: any) => {
        if (!seen.has(value.checkIns)) seen.set(value.checkIns, performance.now());
      });
    }
    const until = async (check: () => boolean, what: string, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    await until(() => micSeen.every((s) => s.has(0)) && sceneSeen.every((s) => s.has(0)), "first results");
    console.log(
      `${MICS} event-page subscribers + ${SCENE} scene-list subscribers connected in ${Math.round(performance.now() - t0)} ms`,
    );
    await new Promise((r) => setTimeout(r, 500));

    const runsBefore = (await backendStats(backend)).queryRuns as number;
    const latencies: number[] = [];
    const perMic = new Map<number, number>();
    for (let k = 0; k < CHECKINS; k++) {
      const i = Math.floor(Math.random() * MICS);
      const expectMic = (perMic.get(i) ?? 0) + 1;
      perMic.set(i, expectMic);
      await writer.mutation(api.scene.checkIn, { mic: mics[i], comedian: `c${k}` });
      const responded = performance.now();
      await until(() => micSeen[i].has(expectMic) && sceneSeen.every((s) => s.has(k + 1)), `check-in ${k}`);
      const last = Math.max(micSeen[i].get(expectMic)!, ...sceneSeen.map((s) => s.get(k + 1)!));
      latencies.push(Math.max(0, last - responded));
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    const stats = await backendStats(backend);
    const reruns = ((stats.queryRuns as number) - runsBefore) / CHECKINS;
    latencies.sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`query re-runs per check-in: ${reruns.toFixed(1)} (of ${MICS + 1} shared executions)`);
    console.log(
      `check-in -> its watchers (mic page + ${SCENE} scene lists), ${CHECKINS} check-ins: ` +
        `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(latencies[latencies.length - 1])}`,
    );
    console.log(
      `contention warnings: ${stats.contention.warnings} (threshold ${stats.contention.threshold} transactions/s on one document)`,
    );
    console.log(`backend RSS with ${MICS + SCENE} subscribers: ${rssMiB(backend.child.pid!)} MiB`);
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stopBackend(backend);
  }
}
