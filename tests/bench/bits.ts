/**
 * `npm run bench -- --only-bits`: the material pages on one local backend
 * holding two comedians, a small one (50 bits, 200 rated sets) and a big one
 * (500 bits, 2,000 rated sets, five bits rated a set), each with a pending
 * "How did it go?". Prints the documents each query of the bit page, the
 * history page and the rating prompt reads (the engine's transaction
 * metrics, as in querySeries.ts) and its time: the two columns must match.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { importPKCS8, SignJWT } from "jose";
import { startBackend, type Backend } from "../local-backend/harness";
import { fmt, median, ms, row, RUNS } from "./options";
import { adminRunner, benchModule, functionsCopy, PROBE_MODULE } from "./benchFunctions";

const api = anyApi as any;

type Measure = { documentsRead: number; bytesRead: number; databaseQueries: number; result: unknown };
type Shape = { label: string; bits: number; sets: number };
type Comedian = Shape & { client: ConvexHttpClient; topBit: string; quietBit: string; pendingSet: string };

const SHAPES: Shape[] = [
  { label: "small", bits: 50, sets: 200 },
  { label: "big", bits: 500, sets: 2000 },
];
const PER_SET = 5;
const MICS = 20;
const SETS_A_BATCH = 10;
/** The rooms query reads a bit's rooms (at most one a mic: {@link MICS} here), their mics, and the bit. */
const ROOMS_BUDGET = 2 * MICS + 3;

async function seedComedian(
  backend: Backend,
  run: ReturnType<typeof adminRunner>,
  shape: Shape,
  mics: string[],
  nowMs: number,
): Promise<Comedian> {
  const cli = async (args: string[]) => {
    const r = await backend.cli(args);
    if (r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const [person] = await run<Array<{ userId: string; sessionId: string }>>("fixtures:insertComedians", {
    prefix: `Bits ${shape.label}`,
    count: 1,
  });
  const bits: string[] = [];
  for (let from = 0; from < shape.bits; from += 100) {
    const count = Math.min(100, shape.bits - from);
    bits.push(...(await run<string[]>("benchBits:seedBits", { userId: person.userId, from, count })));
  }
  const started = performance.now();
  const reads = { log: [] as number[], rate: [] as number[] };
  for (let from = 0; from < shape.sets; from += SETS_A_BATCH) {
    const count = Math.min(SETS_A_BATCH, shape.sets - from);
    const r = await run<{ logReads: number; rateReads: number }>("benchBits:seedRatedSets", {
      userId: person.userId,
      mics,
      bits,
      from,
      count,
      total: shape.sets,
      perSet: PER_SET,
      nowMs,
    });
    if (process.env.BENCH_DEBUG) console.log(from, r);
    reads.log.push(r.logReads / count);
    reads.rate.push(r.rateReads / count);
  }
  const seedMs = performance.now() - started;
  const pendingSet = await run<string>("benchBits:seedPending", {
    userId: person.userId,
    micId: mics[0],
    bits: bits.slice(0, PER_SET),
    nowMs,
  });
  const first = (xs: number[]) => Math.round(xs[0]);
  const last = (xs: number[]) => Math.round(xs[xs.length - 1]);
  console.log(
    `${shape.label}: ${fmt(shape.bits)} bits, ${fmt(shape.sets)} sets with ${fmt(shape.sets * PER_SET)} ratings ` +
      `written in ${(seedMs / 1000).toFixed(1)} s (${ms(seedMs / shape.sets)} a set with its ${PER_SET} ratings). ` +
      `Documents read, first ${SETS_A_BATCH} sets -> last ${SETS_A_BATCH}: logging a set ` +
      `${first(reads.log)} -> ${last(reads.log)} (all the set triggers, the streaks' included), rating its ${PER_SET} bits ` +
      `${first(reads.rate)} -> ${last(reads.rate)} (target: bounded once each bit has its 10 newest ratings)`,
  );
  // The backend's own signing key: the bench issues the token Convex Auth would.
  const key = await importPKCS8(await cli(["env", "get", "JWT_PRIVATE_KEY"]), "RS256");
  const issuer = await cli(["env", "get", "CONVEX_SITE_URL"]);
  const token = await new SignJWT({ sub: `${person.userId}|${person.sessionId}` })
    .setProtectedHeader({ alg: "RS256" })
    .setIssuedAt()
    .setIssuer(issuer)
    .setAudience("convex")
    .setExpirationTime("1h")
    .sign(key);
  const client = new ConvexHttpClient(backend.url, { logger: false });
  client.setAuth(token);
  // Bit 0 is in every set; the last bit in few.
  return { ...shape, client, topBit: bits[0], quietBit: bits[bits.length - 1], pendingSet };
}

async function measure(client: ConvexHttpClient, name: string, args: Record<string, unknown>) {
  const m = (await client.query(api.benchProbe.measure, { name, args })) as Measure;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await client.query(name as never, args as never);
    times.push(performance.now() - t0);
  }
  return { ...m, median: median(times) };
}

/** What each page asks for, by the comedian. */
type Query = [page: string, label: string, name: string, args: Record<string, unknown>];

/** A query's target: the same documents for both comedians, except the rooms (one row per mic the bit was done at). */
function withinTarget(name: string, small: number, big: number): boolean {
  return name === "ratings:rooms" ? Math.max(small, big) <= ROOMS_BUDGET : small === big;
}

function queries(c: Comedian): Query[] {
  return [
    ["bit page", "bits.get (bit in every set)", "bits:get", { id: c.topBit }],
    ["bit page", "ratings.rooms (bit in every set)", "ratings:rooms", { bitId: c.topBit }],
    ["bit page", "bits.get (bit in few sets)", "bits:get", { id: c.quietBit }],
    ["bit page", "ratings.rooms (bit in few sets)", "ratings:rooms", { bitId: c.quietBit }],
    ["history", "history.list (page 1 of 25)", "history:list", { paginationOpts: { numItems: 25, cursor: null } }],
    ["history", "history.stats", "history:stats", {}],
    ["prompt", "ratings.pending", "ratings:pending", {}],
    ["prompt", "ratings.forSet (the pending set)", "ratings:forSet", { performanceId: c.pendingSet }],
    [
      "library",
      "bits.list (page 1 of 50)",
      "bits:list",
      { archived: false, paginationOpts: { numItems: 50, cursor: null } },
    ],
  ];
}

export async function bitsBench(): Promise<void> {
  console.log("\n== Material: bit page, history page and rating prompt for a small and a big comedian ==");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-bench-bits-"));
  const backend = await startBackend({
    functionsDir: functionsCopy(work, { "benchProbe.ts": PROBE_MODULE, "benchBits.ts": benchModule("bitsSeed.ts") }),
    startTimeoutMs: 5 * 60_000,
  });
  try {
    const run = adminRunner(backend);
    const nowMs = Date.now();
    const mics = await run<string[]>("benchBits:seedMics", { prefix: "Bench", count: MICS });
    const comedians: Comedian[] = [];
    for (const shape of SHAPES) comedians.push(await seedComedian(backend, run, shape, mics, nowMs));

    const widths = [9, 36, 15, 15, 10, 10, 20];
    const [small, big] = comedians;
    const head = (c: Comedian) => `${c.bits}/${fmt(c.sets)} docs`;
    console.log("\n" + row(["page", "query", head(small), head(big), "small ms", "big ms", "target"], widths));
    const smallQs = queries(small);
    const bigQs = queries(big);
    let flat = true;
    for (const [i, [page, label, name]] of smallQs.entries()) {
      const a = await measure(small.client, name, smallQs[i][3]);
      const b = await measure(big.client, name, bigQs[i][3]);
      const ok = withinTarget(name, a.documentsRead, b.documentsRead);
      if (!ok) flat = false;
      const target = name === "ratings:rooms" ? `<= ${ROOMS_BUDGET} (rooms)` : "same";
      console.log(
        row(
          [
            page,
            label,
            a.documentsRead,
            b.documentsRead,
            ms(a.median),
            ms(b.median),
            ok ? `${target} ok` : `${target} MISSED`,
          ],
          widths,
        ),
      );
    }
    console.log(
      `\n${flat ? "Flat" : "NOT flat"}: documents read per query for ${fmt(small.bits)} bits / ${fmt(small.sets)} sets ` +
        `and ${fmt(big.bits)} bits / ${fmt(big.sets)} sets (median of ${RUNS} HTTP round trips; ${MICS} mics).`,
    );
  } finally {
    await backend.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
