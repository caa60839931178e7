/**
 * Fills a local backend data directory with a national-size scene:
 *
 *   npx tsx scripts/generate-scale.ts [--mics 100000] [--comedians 1000] [--max-sets 10000]
 *       [--data-dir .convex-scale] [--out <data-dir>/../scale-snapshot.json] [--seed 1] [--no-import]
 *
 * Mics are spread over ~55 US metro areas in proportion to their size (a normal
 * spread of ~8 miles around each centre, geohash and search text computed as
 * the app does). Comedian 0 has exactly --max-sets sets; the others follow a
 * long tail (max^(u^3): most have a handful, a few have thousands), each at
 * five mics of their home metro (also on their schedule and favourites), with
 * their stats row, day rows, venue visits and badges consistent with the sets.
 * Every comedian is a real email/password account: comic<N>@scale.stagetime.test
 * with the password printed at the end (hashed as Convex Auth's Password
 * provider hashes it).
 *
 * The snapshot is written (streamed) in the local backend's export format and
 * imported with its CLI (`import`, replacing the data directory's database;
 * stop a backend running on that data dir first). Check it with
 * `npm run backend -- run invariants:checkAll --data-dir <dir>`.
 */
import path from "node:path";
import { importScaleSnapshot, writeScaleSnapshot } from "../tests/bench/scaleData";

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const MICS = Number(flag("mics", "100000"));
const COMEDIANS = Number(flag("comedians", "1000"));
const MAX_SETS = Number(flag("max-sets", "10000"));
const SEED = Number(flag("seed", "1"));
const DATA_DIR = path.resolve(flag("data-dir", ".convex-scale"));
const OUT = path.resolve(flag("out", path.join(DATA_DIR, "..", "scale-snapshot.json")));
const IMPORT = !process.argv.includes("--no-import");

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const summary = await writeScaleSnapshot({
    mics: MICS,
    comedians: COMEDIANS,
    maxSets: MAX_SETS,
    seed: SEED,
    out: OUT,
  });
  const fmt = (n: number) => n.toLocaleString("en-US");
  console.log(
    `Generated ${fmt(MICS)} mics in ${summary.cities} metro areas, ${fmt(COMEDIANS)} comedians, ${fmt(summary.totalSets)} sets ` +
      `(${fmt(summary.totalMinutes)} minutes) in ${secs(summary.ms)}`,
  );
  console.log(`  sets per comedian: max ${fmt(MAX_SETS)}, distribution ${JSON.stringify(summary.histogram)}`);
  console.log(
    `  documents per table: ${Object.entries(summary.tables)
      .map(([t, n]) => `${t} ${fmt(n)}`)
      .join(", ")}`,
  );
  console.log(
    `  ${fmt(summary.documents)} documents -> ${OUT} (${mib(summary.bytes)}); peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`,
  );
  console.log(
    `  sign in as ${summary.comedian0.email} / ${summary.comedian0.password} ` +
      `(${fmt(summary.comedian0.sets)} sets, ${fmt(summary.comedian0.minutes)} minutes; every comic<N> has the same password)`,
  );
  if (!IMPORT) return;
  const ms = importScaleSnapshot(OUT, DATA_DIR);
  console.log(`Imported into ${DATA_DIR} in ${secs(ms)}`);
  console.log(
    `Start it with: npm run backend -- start --data-dir ${DATA_DIR.startsWith(process.cwd() + path.sep) ? path.relative(process.cwd(), DATA_DIR) : DATA_DIR}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
