/**
 * `npm run bench:backend [-- --subscribers 200 --docs 1000 --updates 30 --query summary|all]`:
 * fan-out of one query's updates to N subscribers (see tests/bench/backend.ts).
 */
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { api, backendStats, flag, percentile, rssMiB, startBackend, stopBackend } from "./common";
import { hotDocumentBursts } from "./hotDocument";

const SUBSCRIBERS = Number(flag("subscribers", "200"));
const DOCS = Number(flag("docs", "1000"));
const UPDATES = Number(flag("updates", "30"));
// "summary" reads all the documents and returns a small result; "all" also ships
// all 1,000 documents to every subscriber (then client-side parsing in this
// process dominates the figures).
const QUERY = flag("query", "summary");

export async function subscribers(): Promise<void> {
  const backend = await startBackend({ processEnv: { LOCAL_BACKEND_TRACE: "1" } });
  const { child } = backend;
  const url = backend.url;
  const writer = new ConvexHttpClient(url);
  const clients: ConvexClient[] = [];
  try {
    for (let from = 0; from < DOCS; from += 500) {
      await writer.mutation(api.items.seed, { from, count: Math.min(500, DOCS - from) });
    }
    const query = QUERY === "summary" ? api.items.summary : api.items.all;
    const countOf = (value: any): number => (QUERY === "summary" ? value.count : value.length);

    // Each subscriber records when it first saw each item count.
    const seenAt: Map<number, number>[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const client = new ConvexClient(url, { unsavedChangesWarning: false });
      clients.push(client);
      const seen = new Map<number, number>();
      seenAt.push(seen);
      client.onUpdate(query, {}, (value: any) => {
        const count = countOf(value);
        if (!seen.has(count)) seen.set(count, performance.now());
      });
    }
    const waitAll = async (count: number, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!seenAt.every((s) => s.has(count))) {
        if (Date.now() > deadline) throw new Error(`subscribers did not all see ${count} items`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    const t0 = performance.now();
    await waitAll(DOCS);
    console.log(
      `${SUBSCRIBERS} subscribers to items:${QUERY} over ${DOCS} documents connected in ${Math.round(performance.now() - t0)} ms`,
    );

    const latencies: number[] = [];
    const firstLatencies: number[] = [];
    const traceStart = backend.output().length;
    for (let i = 0; i < UPDATES; i++) {
      const count = DOCS + i + 1;
      await writer.mutation(api.items.add, { n: count - 1 });
      const responded = performance.now();
      await waitAll(count);
      const times = seenAt.map((s) => s.get(count)!);
      latencies.push(Math.max(0, Math.max(...times) - responded));
      firstLatencies.push(Math.max(0, Math.min(...times) - responded));
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.sort((a, b) => a - b);
    firstLatencies.sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(
      `mutation response -> last subscriber update (${UPDATES} mutations): ` +
        `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(latencies[latencies.length - 1])}`,
    );
    console.log(
      `mutation response -> first subscriber update: p50 ${fmt(percentile(firstLatencies, 50))}, p95 ${fmt(percentile(firstLatencies, 95))}`,
    );
    const flushes = [
      ...backend
        .output()
        .slice(traceStart)
        .matchAll(/re-ran (?:\d+ )?queries in ([\d.]+) ms, pushed to (\d+) sessions in ([\d.]+) ms/g),
    ]
      .filter((m) => Number(m[2]) === SUBSCRIBERS)
      .map((m) => Number(m[1]) + Number(m[3]))
      .sort((a, b) => a - b);
    if (flushes.length > 0) {
      console.log(
        `backend alone, query re-run + sending to ${SUBSCRIBERS} sessions: p50 ${fmt(percentile(flushes, 50))}, ` +
          `p95 ${fmt(percentile(flushes, 95))}, max ${fmt(flushes[flushes.length - 1])}`,
      );
    }
    console.log(`backend RSS with ${SUBSCRIBERS} subscribers: ${rssMiB(child.pid!)} MiB`);

    for (const client of clients.splice(0)) await client.close();
    const start = performance.now();
    let done = 0;
    while (performance.now() - start < 3000) {
      await writer.mutation(api.items.add, { n: 1_000_000 + done });
      done++;
    }
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `single writer, no subscribers: ${(done / seconds).toFixed(0)} mutations/s (${done} in ${seconds.toFixed(1)} s, each fsync'd)`,
    );
    // A hot document: every transaction for 1 s writes the same item. The
    // backend warns about it (contention.ts); count the warnings.
    const hotStart = performance.now();
    let touches = 0;
    while (performance.now() - hotStart < 1000) {
      await writer.mutation(api.items.touchFirst, {});
      touches++;
    }
    const { contention } = await backendStats(backend);
    console.log(
      `contention warnings: ${contention.warnings} (threshold ${contention.threshold} transactions/s on one document; ` +
        `${touches} writes to one item in 1 s${contention.hot.length > 0 ? `; last: table "${contention.hot.at(-1).table}" by ${contention.hot.at(-1).functions.join(", ")}` : ""})`,
    );
    await hotDocumentBursts(backend);
    console.log(`backend RSS at the end: ${rssMiB(child.pid!)} MiB`);
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stopBackend(backend);
  }
}
