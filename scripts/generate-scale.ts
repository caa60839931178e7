/**
 * Fills a local backend data directory with a national-size scene:
 *
 *   npx tsx scripts/generate-scale.ts [--mics 100000] [--comedians 1000] [--max-sets 10000]
 *       [--data-dir .convex-scale] [--out /tmp/scale-snapshot.json] [--seed 1] [--no-import]
 *
 * Mics are spread over ~55 US metro areas in proportion to their size (a normal
 * spread of ~8 miles around each centre, geohash computed as the app does).
 * Comedian 0 has exactly --max-sets sets; the others follow a long tail
 * (max^(u^3): most have a handful, a few have thousands), each at five mics of
 * their home metro, with their stats row, day rows and venue visits consistent
 * with the sets. The snapshot is written in the local backend's export format
 * and imported with its CLI (`import`, replacing the data directory's
 * database; stop a backend running on that data dir first or it is imported
 * into the running one). The generated comedians have no passwords: they are
 * data, not accounts to sign in with.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateMic, generateSets, setCountFor, summarizeSets } from "../tests/bench/scaleData";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

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

/** Ids in the shape the local backend (convex-test) gives them: a counter padded to 32 characters with the table. */
let counter = 10_000;
function newId(table: string): string {
  return (counter++).toString().padStart(32 - table.length, "0") + table;
}

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };

function main(): void {
  const started = Date.now();
  const nowMs = Date.now();
  const today = new Date(nowMs).toISOString().slice(0, 10);
  let creation = nowMs - 400 * 24 * 60 * 60 * 1000;
  const doc = (table: string, fields: Record<string, unknown>): Doc => ({
    _id: newId(table),
    _creationTime: (creation += 0.25),
    ...fields,
  });

  const tables: Record<string, Doc[]> = {
    sceneItems: [],
    users: [],
    profiles: [],
    userStats: [],
    userBadges: [],
    performances: [],
    performanceDays: [],
    venueVisits: [],
    cities: [],
    siteStats: [],
  };

  const micsByCity = new Map<string, number[]>();
  const cityCounts = new Map<string, number>();
  for (let i = 0; i < MICS; i++) {
    const mic = generateMic(i, SEED);
    tables.sceneItems.push(doc("sceneItems", mic));
    const list = micsByCity.get(mic.city) ?? [];
    list.push(i);
    micsByCity.set(mic.city, list);
    cityCounts.set(mic.city, (cityCounts.get(mic.city) ?? 0) + 1);
  }
  const cityNames = [...micsByCity.keys()];

  let totalSets = 0;
  let totalMinutes = 0;
  const histogram = { "1-9": 0, "10-99": 0, "100-999": 0, "1000-9999": 0, "10000+": 0 };
  for (let c = 0; c < COMEDIANS; c++) {
    const user = doc("users", { email: `comic${c}@scale.stagetime.test`, name: `Scale Comic ${c}` });
    tables.users.push(user);
    const userId = user._id;
    tables.profiles.push(
      doc("profiles", {
        userId,
        displayName: `Scale Comic ${c}`,
        onboardingCompleted: true,
        needsOnboarding: false,
        weeklyGoalMinutes: 15,
        timeZone: "UTC",
        isAdmin: false,
      }),
    );
    const count = MICS > 0 ? setCountFor(c, MAX_SETS, SEED) : 0;
    const bucket =
      count >= 10_000 ? "10000+" : count >= 1000 ? "1000-9999" : count >= 100 ? "100-999" : count >= 10 ? "10-99" : "1-9";
    histogram[bucket]++;
    const home = micsByCity.get(cityNames[c % cityNames.length]) ?? [];
    const homeMics = home.slice(0, 5);
    const sets = homeMics.length > 0 ? generateSets(count, homeMics, nowMs, SEED * 31 + c) : [];
    const summary = summarizeSets(sets, today);
    // Oldest first, so creation times follow the sets.
    for (const set of [...sets].reverse()) {
      tables.performances.push(
        doc("performances", {
          userId,
          minutes: set.minutes,
          performedAt: set.performedAt,
          performanceDate: set.performanceDate,
          sceneItemId: tables.sceneItems[set.micIndex]._id,
          tags: set.tags,
        }),
      );
    }
    for (const [date, n] of summary.days) tables.performanceDays.push(doc("performanceDays", { userId, date, sets: n }));
    for (const [micIndex, n] of summary.venues) {
      tables.venueVisits.push(doc("venueVisits", { userId, sceneItemId: tables.sceneItems[micIndex]._id, sets: n }));
    }
    tables.userStats.push(doc("userStats", { userId, ...summary.stats }));
    for (const badgeCode of summary.badges) {
      tables.userBadges.push(doc("userBadges", { userId, badgeCode, awardedAt: sets[0]?.performedAt ?? nowMs }));
    }
    totalSets += sets.length;
    totalMinutes += summary.stats.totalMinutes;
  }

  for (const [name, items] of cityCounts) tables.cities.push(doc("cities", { name, items }));
  tables.siteStats.push(
    doc("siteStats", {
      key: "global",
      venues: MICS,
      minutesLogged: totalMinutes,
      comedians: COMEDIANS,
      cities: cityCounts.size,
    }),
  );

  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  // Written table by table: one JSON.stringify of everything can exceed V8's string limit.
  const fd = fs.openSync(OUT, "w");
  fs.writeSync(fd, `{"format":"stagetime-local-backend-snapshot","version":1,"tables":{`);
  Object.entries(tables).forEach(([table, docs], t) => {
    fs.writeSync(fd, `${t > 0 ? "," : ""}${JSON.stringify(table)}:[`);
    for (let i = 0; i < docs.length; i += 5000) {
      const chunk = docs.slice(i, i + 5000).map((d) => JSON.stringify(d)).join(",");
      fs.writeSync(fd, `${i > 0 ? "," : ""}${chunk}`);
    }
    fs.writeSync(fd, "]");
  });
  fs.writeSync(fd, `},"files":{}}\n`);
  fs.closeSync(fd);

  const documents = Object.values(tables).reduce((n, docs) => n + docs.length, 0);
  console.log(`Generated ${MICS} mics in ${cityCounts.size} metro areas, ${COMEDIANS} comedians, ${totalSets} sets`);
  console.log(`  sets per comedian: max ${MAX_SETS} (comedian 0 has ${setCountFor(0, MAX_SETS, SEED)}), distribution ${JSON.stringify(histogram)}`);
  console.log(`  ${documents} documents -> ${OUT} (${(fs.statSync(OUT).size / 2 ** 20).toFixed(1)} MiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  if (!IMPORT) return;
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const importStarted = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      "--max-old-space-size=6144",
      "--import",
      "tsx",
      path.join(root, "local-backend/src/cli.ts"),
      "import",
      OUT,
      "--data-dir",
      DATA_DIR,
      "--functions",
      path.join(root, "convex"),
    ],
    { cwd: root, stdio: "inherit" },
  );
  if (result.status !== 0) {
    console.error(`import failed (exit ${result.status})`);
    process.exit(1);
  }
  console.log(`Imported into ${DATA_DIR} in ${((Date.now() - importStarted) / 1000).toFixed(1)} s`);
  console.log(`Start it with: npm run backend -- start --data-dir ${DATA_DIR} --no-seed`);
}

main();
