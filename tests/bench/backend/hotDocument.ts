/**
 * Optimistic concurrency on one hot document: bursts of clients, each on its
 * own connection, call `items:touchFirst` (read item 0, then write it) at
 * the same moment. Prints, per burst, the conflicts, the retries, the calls
 * that failed past Convex's retry budget (OptimisticConcurrencyControlFailure)
 * and the calls' latency. Run alone with `npm run bench:backend -- --hot
 * [--burst 50 --bursts 3]`; the default run prints it too.
 */
import { ConvexHttpClient } from "convex/browser";
import { api, backendStats, type BenchBackend, flag, percentile, startBackend, stopBackend } from "./common";

export async function hotDocumentBursts(backend: BenchBackend): Promise<void> {
  const BURST = Number(flag("burst", "50"));
  const BURSTS = Number(flag("bursts", "3"));
  const clients = Array.from({ length: BURST }, () => new ConvexHttpClient(backend.url));
  // Item 0 exists and each client has its connection open before the first burst.
  await clients[0].mutation(api.items.add, { n: 0 });
  await Promise.all(clients.map((client) => client.query(api.items.summary, {})));
  const before = (await backendStats(backend)).occ;
  const times: number[] = [];
  let failed = 0;
  for (let b = 0; b < BURSTS; b++) {
    const results = await Promise.allSettled(
      clients.map(async (client) => {
        const start = performance.now();
        try {
          await client.mutation(api.items.touchFirst, {});
        } finally {
          times.push(performance.now() - start);
        }
      }),
    );
    failed += results.filter((r) => r.status === "rejected").length;
  }
  const after = (await backendStats(backend)).occ;
  times.sort((a, b) => a - b);
  const per = (n: number) => (n / BURSTS).toFixed(1);
  console.log(
    `hot document, optimistic concurrency ${after.enabled ? "on" : "off (LOCAL_BACKEND_OCC=0)"}: ` +
      `${BURSTS} bursts of ${BURST} concurrent read-modify-writes of one item: per burst ` +
      `${per(after.conflicts - before.conflicts)} conflicts, ${per(after.retries - before.retries)} retries, ` +
      `${per(failed)} failed past the budget of ${after.maxRetries} retries, ${per(BURST * BURSTS - failed)} committed; ` +
      `call p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, ` +
      `max ${times[times.length - 1].toFixed(0)} ms`,
  );
}

/** `--hot`: only the hot-document bursts, on a backend of their own. */
export async function hotDocument(): Promise<void> {
  const backend = await startBackend();
  try {
    await hotDocumentBursts(backend);
  } finally {
    await stopBackend(backend);
  }
}
