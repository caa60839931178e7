/**
 * `--storage` (issue 18 item 3): start time, memory and compaction of the local
 * backend over the scale generator's national scene (see tests/bench/backend.ts).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import {
  adminPost,
  api,
  type BenchBackend,
  backendCli,
  backendStats,
  cliNodeArgs,
  cpuSeconds,
  flag,
  root,
  rssMiB,
  startBackend,
  stopBackend,
} from "./common";

const NYC = { lat: 40.7128, lng: -74.006 };
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Imports the generated scene (or `--snapshot FILE`) into `dataDir` with the CLI under test. */
async function importScene(cli: string, dataDir: string): Promise<void> {
  const { writeScaleSnapshot } = await import("../scaleData");
  const given = process.argv.includes("--snapshot") ? path.resolve(flag("snapshot", "")) : null;
  const snapshot = given ?? path.join(os.tmpdir(), `bench-storage-${process.pid}.json`);
  if (!given) {
    const summary = await writeScaleSnapshot({
      mics: Number(flag("mics", "150000")),
      comedians: Number(flag("comedians", "1000")),
      maxSets: Number(flag("max-sets", "10000")),
      out: snapshot,
    });
    console.log(`generated ${summary.documents.toLocaleString("en")} documents (${mib(summary.bytes)} snapshot)`);
  }
  // The CLI under test imports (the "before" writes its own format).
  fs.mkdirSync(dataDir, { recursive: true });
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [
      "--max-old-space-size=12288",
      ...cliNodeArgs(cli),
      "import",
      snapshot,
      "--data-dir",
      dataDir,
      "--functions",
      path.join(root, "convex"),
    ],
    { cwd: root, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`import failed:\n${result.stdout}\n${result.stderr}`);
  if (!given) fs.rmSync(snapshot, { force: true });
  console.log(`CLI import ${secs(performance.now() - started)}: ${result.stdout.trim().split("\n").pop()}`);
}

/**
 * From the spawn of a started backend: its first answers to the scene's two
 * queries (the area around New York, the national list), then the moment every
 * document is parsed (a backend that parses tables when first used reports
 * `unparsedDocuments`; one without it parsed everything before it was ready).
 */
async function firstAnswers(backend: BenchBackend, spawnedAt: number): Promise<string> {
  const client = new ConvexHttpClient(backend.url, { logger: false });
  const area = await client.query(api.sceneArea.listArea, {
    ...NYC,
    radiusMiles: 10,
    paginationOpts: { numItems: 50, cursor: null },
  });
  const areaMs = performance.now() - spawnedAt;
  const areaCpu = cpuSeconds(backend.child.pid!);
  const list = await client.query(api.scene.listPage, {
    type: "all",
    day: null,
    search: "",
    paginationOpts: { numItems: 24, cursor: null },
  });
  const listMs = performance.now() - spawnedAt;
  let unparsed = (await backendStats(backend)).unparsedDocuments as number | undefined;
  const unparsedAtFirst = unparsed;
  while (unparsed) {
    await new Promise((r) => setTimeout(r, 20));
    unparsed = (await backendStats(backend)).unparsedDocuments as number | undefined;
  }
  const allMs = performance.now() - spawnedAt;
  const allCpu = cpuSeconds(backend.child.pid!);
  return (
    `first scene area query (NYC 10 mi, ${area.page.length} mics) answered ${secs(areaMs)} after spawn ` +
    `(backend CPU ${areaCpu.toFixed(2)} s), ` +
    `scene.listPage (${list.page.length}) ${secs(listMs)}; ` +
    (unparsedAtFirst === undefined
      ? "every document parsed before ready"
      : `${unparsedAtFirst.toLocaleString("en")} documents still unparsed then, all parsed ${secs(allMs)} after spawn ` +
        `(backend CPU ${allCpu.toFixed(2)} s)`)
  );
}

export async function storage(): Promise<void> {
  const { SCALE_PASSWORD, scaleEmail } = await import("../scaleData");
  const cli = path.resolve(flag("cli", backendCli));
  const dataDir = path.resolve(flag("data-dir", path.join(os.tmpdir(), "bench-storage-data")));
  console.log(
    `Storage bench, ${new Date().toISOString()}, backend ${path.relative(root, cli) || cli}, data ${dataDir}; ` +
      `load average ${loadAverage()} on ${os.cpus().length} cores`,
  );
  if (!fs.existsSync(path.join(dataDir, "log.jsonl"))) await importScene(cli, dataDir);
  const start = async () => {
    const spawnedAt = performance.now();
    const backend = await startBackend({
      cli,
      dataDir,
      functionsDir: path.join(root, "convex"),
      nodeArgs: ["--max-old-space-size=12288"],
    });
    return { backend, spawnedAt };
  };

  const first = await start();
  const compactedAtStart = /Compacted[^\n]*/.exec(first.backend.output())?.[0];
  console.log(
    `first start (after the import) ${secs(first.backend.startMs)}${compactedAtStart ? `; ${compactedAtStart}` : ""}`,
  );
  await stopBackend(first.backend);

  const { backend, spawnedAt } = await start();
  try {
    console.log(
      `start (spawn to "Local backend ready") ${secs(backend.startMs)} (backend CPU ${cpuSeconds(backend.child.pid!).toFixed(2)} s)`,
    );
    console.log(await firstAnswers(backend, spawnedAt));
    const stats = await backendStats(backend);
    const rss = rssMiB(backend.child.pid!) * 2 ** 20;
    const documents: number | undefined = stats.documents;
    console.log(
      `RSS ${mib(rss)}` +
        (documents
          ? `; ${documents.toLocaleString("en")} documents, ${(rss / documents).toFixed(0)} bytes RSS per document`
          : ""),
    );
    if (stats.storage) console.log(`segments: ${JSON.stringify({ ...stats.storage, lastCompaction: undefined })}`);
    // A small change: comedian 0 signs in (a session, a refresh token).
    const client = new ConvexHttpClient(backend.url, { logger: false });
    await client.action(api.auth.signIn, {
      provider: "password",
      params: { email: scaleEmail(0), password: SCALE_PASSWORD, flow: "signIn" },
    });
    const response = await adminPost(backend, "compact");
    if (!response.ok) throw new Error(`/_local/compact: ${response.status} ${await response.text()}`);
    const c = (await response.json()) as Record<string, number | string>;
    console.log(
      `compaction after a sign-in: ${c.kind}, ${c.changed} documents changed, ${Number(c.ms).toFixed(1)} ms, ` +
        `${(Number(c.bytes) / 1024).toFixed(1)} KiB written in ${c.files} files`,
    );
  } finally {
    await stopBackend(backend);
    // The start's figures are wall times on a shared machine: the load they were taken under, at both ends.
    console.log(`load average at the end ${loadAverage()}`);
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
