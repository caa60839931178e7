import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { version } from "convex";
import { convexToJson } from "convex/values";
import WebSocket from "ws";
import { api, flag, percentile, root, startBackend, stopBackend } from "./common";

/**
 * `--abuse [--sockets 2 --subs 1000 --writes 10]`: the attack of one anonymous client multiplying
 * the cost of every write. Over the local-backend test fixture, `--sockets` raw sync sockets each
 * subscribe `--subs` times to one query over the channel "hot" (`sync:count`), differing only in an
 * argument it ignores; then `--writes` writes to that channel, each followed at once by an
 * unrelated visitor's query. Prints how many sockets the backend ended (and why), and the p50/max
 * of the write's round trip and of the unrelated query, before the attack and during it.
 */
export async function abuse(): Promise<void> {
  const SOCKETS = Number(flag("sockets", "2"));
  const SUBS = Number(flag("subs", "1000"));
  const WRITES = Number(flag("writes", "10"));
  const backend = await startBackend({ functionsDir: path.join(root, "tests/local-backend/fixture/convex") });
  const sockets: WebSocket[] = [];
  try {
    const http = new ConvexHttpClient(backend.url);
    const round = async (): Promise<{ write: number; query: number }> => {
      const start = performance.now();
      await http.mutation(api.sync.insert, { channel: "hot", body: "walk-in" });
      const written = performance.now();
      await http.query(api.messages.list, { channel: "elsewhere" });
      return { write: written - start, query: performance.now() - written };
    };
    const series = async (n: number) => {
      const out: { write: number; query: number }[] = [];
      for (let i = 0; i < n; i++) {
        out.push(await round());
        // Let the re-runs of this write go on while the next write and query arrive.
        await new Promise((r) => setTimeout(r, 50));
      }
      const pick = (key: "write" | "query") => out.map((r) => r[key]).sort((a, b) => a - b);
      return { write: pick("write"), query: pick("query") };
    };
    const fmt = (sorted: number[]) =>
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
    await series(5);
    const alone = await series(WRITES);
    console.log(`alone: write ${fmt(alone.write)}; unrelated query ${fmt(alone.query)}`);

    const endings: string[] = [];
    await Promise.all(
      Array.from({ length: SOCKETS }, async (_, s) => {
        const socket = new WebSocket(`${backend.url.replace(/^http/, "ws")}/api/${version}/sync`);
        sockets.push(socket);
        await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
        const first = new Promise<void>((resolve) => {
          socket.on("message", (data) => {
            const message = JSON.parse(data.toString());
            if (message.type === "FatalError") endings.push(message.error.split(":")[0]);
            if (message.type === "Transition" || message.type === "FatalError") resolve();
          });
          socket.once("close", () => resolve());
        });
        socket.send(
          JSON.stringify({
            type: "Connect",
            sessionId: crypto.randomUUID(),
            connectionCount: 0,
            lastCloseReason: "InitialConnect",
          }),
        );
        socket.send(
          JSON.stringify({
            type: "ModifyQuerySet",
            baseVersion: 0,
            newVersion: 1,
            modifications: Array.from({ length: SUBS }, (_, i) => ({
              type: "Add",
              queryId: i,
              udfPath: "sync:count",
              args: [convexToJson({ channel: "hot", tag: `${s}-${i}` })],
            })),
          }),
        );
        await first;
      }),
    );
    console.log(
      `${SOCKETS} sockets x ${SUBS} subscriptions: ${endings.length} ended by the backend` +
        (endings.length ? ` (${[...new Set(endings)].join(", ")})` : ""),
    );
    const attacked = await series(WRITES);
    console.log(`during the attack: write ${fmt(attacked.write)}; unrelated query ${fmt(attacked.query)}`);
  } finally {
    for (const socket of sockets) socket.terminate();
    await stopBackend(backend);
  }
}
