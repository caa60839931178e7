/**
 * National-size data for the scale generator (scripts/generate-scale.ts) and
 * the benchmark, written as a local backend snapshot and imported through the
 * CLI. The mics, sets and their summaries come from ./scaleGenerators.ts
 * (re-exported here). Deterministic for a given seed (apart from the password
 * salt and the clock the sets go back from).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Scrypt } from "lucia";
import type { Doc } from "@convex/_generated/dataModel";
import { DEFAULT_LEAD_MINUTES } from "@convex/lib/notificationRules";
import { entryDueAt } from "@convex/model/scheduleDue";
import { cityKey } from "@convex/model/stats";
import { backendCli } from "./backend/common";
import { DAY_MS, generateMic, generateSets, type GeneratedMic, setCountFor, summarizeSets } from "./scaleGenerators";

export {
  generateMic,
  generateSets,
  METROS,
  rng,
  setCountFor,
  summarizeSets,
  type GeneratedMic,
  type GeneratedSet,
} from "./scaleGenerators";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Every generated comedian is a real email/password account with this password. */
export const SCALE_PASSWORD = "scale-comic-42";
/** Email of generated comedian `index`; comedian 0 has exactly --max-sets sets. */
export const scaleEmail = (index: number) => `comic${index}@scale.stagetime.test`;
/** Comedians' home mics are chosen among the first this many mics, so the
 * same comedians (same sets at the same mic numbers) exist at every size. */
export const HOME_POOL = 1000;
const HOME_MICS = 5;

/**
 * The mics (indexes) comedian `index` logs sets at: five mics of the metro of
 * mic (index mod pool), the first five of that metro among the pool (the first
 * {@link HOME_POOL} mics, passed in).
 */
export function homeMicsFor(index: number, pool: Array<Pick<GeneratedMic, "city">>): number[] {
  if (pool.length === 0) return [];
  const city = pool[index % pool.length].city;
  const out: number[] = [];
  for (let i = 0; i < pool.length && out.length < HOME_MICS; i++) if (pool[i].city === city) out.push(i);
  return out;
}

export type ScaleOptions = {
  mics: number;
  comedians: number;
  maxSets: number;
  seed?: number;
  /** The snapshot file to write. */
  out: string;
  /** The clock the sets go back from (now by default). */
  nowMs?: number;
};

export type ScaleSummary = {
  /** Documents per table. */
  tables: Record<string, number>;
  documents: number;
  totalSets: number;
  totalMinutes: number;
  cities: number;
  /** Comedians per number of sets. */
  histogram: Record<string, number>;
  comedian0: { email: string; password: string; sets: number; minutes: number; userId: string };
  bytes: number;
  ms: number;
};

/**
 * Appends the documents of each table to its own temporary file as they are
 * made, then joins them into one snapshot: memory holds the mics and one
 * comedian's sets at a time, never the whole snapshot as a string.
 */
class SnapshotWriter {
  private readonly files = new Map<
    string,
    { path: string; fd: number; buffer: string[]; size: number; count: number }
  >();
  constructor(private readonly tmpDir: string) {}

  add(table: string, doc: Record<string, unknown>): void {
    let f = this.files.get(table);
    if (!f) {
      const file = path.join(this.tmpDir, `${table}.part`);
      f = { path: file, fd: fs.openSync(file, "w"), buffer: [], size: 0, count: 0 };
      this.files.set(table, f);
    }
    const json = JSON.stringify(doc);
    f.buffer.push(json);
    f.size += json.length;
    f.count++;
    if (f.size > 1 << 20) this.flush(f);
  }

  private flush(f: { fd: number; buffer: string[]; size: number; count: number }): void {
    if (f.buffer.length === 0) return;
    const before = f.count - f.buffer.length;
    fs.writeSync(f.fd, (before > 0 ? "," : "") + f.buffer.join(","));
    f.buffer = [];
    f.size = 0;
  }

  /** Writes `out` with the components' documents (component name, table, documents); returns the documents per table. */
  finish(out: string, components: Record<string, Record<string, unknown[]>> = {}): Record<string, number> {
    const counts: Record<string, number> = {};
    const fd = fs.openSync(out, "w");
    fs.writeSync(fd, `{"format":"stagetime-local-backend-snapshot","version":1,"tables":{`);
    let t = 0;
    const chunk = Buffer.alloc(1 << 22);
    for (const [table, f] of this.files) {
      this.flush(f);
      fs.closeSync(f.fd);
      counts[table] = f.count;
      fs.writeSync(fd, `${t++ > 0 ? "," : ""}${JSON.stringify(table)}:[`);
      const input = fs.openSync(f.path, "r");
      for (let n; (n = fs.readSync(input, chunk, 0, chunk.length, null)) > 0;) fs.writeSync(fd, chunk, 0, n);
      fs.closeSync(input);
      fs.rmSync(f.path);
      fs.writeSync(fd, "]");
    }
    fs.writeSync(fd, `},"components":${JSON.stringify(components)},"files":{}}\n`);
    fs.closeSync(fd);
    return counts;
  }
}

/**
 * Writes a national scene as a local backend snapshot (the `export` format,
 * for the CLI's `import`): `mics` mics over the metro areas; `comedians`
 * comedians, each an email/password account (users, authAccounts with the
 * secret hashed as Convex Auth's Password provider does: lucia's Scrypt) with
 * a profile, sets at five mics of their home metro, their stats row, day rows,
 * venue visits and badges, and those five mics on their schedule and among
 * their favourites; the cities rows and the community totals (the shardedCounter component). Every document
 * satisfies convex/schema.ts and the invariants (invariants:checkAll).
 */
export async function writeScaleSnapshot(options: ScaleOptions): Promise<ScaleSummary> {
  const started = Date.now();
  const { mics: MICS, comedians: COMEDIANS, maxSets: MAX_SETS, out } = options;
  const seed = options.seed ?? 1;
  const nowMs = options.nowMs ?? Date.now();
  const today = new Date(nowMs).toISOString().slice(0, 10);

  // Ids in the shape the local backend (convex-test) gives them: a counter
  // padded to 32 characters with the table name.
  let counter = 10_000;
  const newId = (table: string) => (counter++).toString().padStart(32 - table.length, "0") + table;
  let creation = nowMs - 400 * DAY_MS;
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const tmpDir = fs.mkdtempSync(`${path.resolve(out)}.parts-`);
  const writer = new SnapshotWriter(tmpDir);
  const add = (table: string, fields: Record<string, unknown>): string => {
    const _id = newId(table);
    writer.add(table, { _id, _creationTime: (creation += 0.25), ...fields });
    return _id;
  };

  try {
    const micIds: string[] = [];
    const pool: GeneratedMic[] = [];
    const activePerCity = new Map<string, number>();
    for (let i = 0; i < MICS; i++) {
      const mic = generateMic(i, seed);
      micIds.push(add("sceneItems", mic));
      if (i < HOME_POOL) pool.push(mic);
      activePerCity.set(cityKey(mic.city), (activePerCity.get(cityKey(mic.city)) ?? 0) + 1);
    }

    // One hash for everyone: each secret carries its salt, so it verifies as any other.
    const secret = await new Scrypt().hash(SCALE_PASSWORD);
    let totalSets = 0;
    let totalMinutes = 0;
    let comedian0: ScaleSummary["comedian0"] | null = null;
    const histogram: Record<string, number> = { "1-9": 0, "10-99": 0, "100-999": 0, "1000-9999": 0, "10000+": 0 };
    for (let c = 0; c < COMEDIANS; c++) {
      const email = scaleEmail(c);
      const name = `Scale Comic ${c}`;
      const userId = add("users", { email, name });
      add("authAccounts", { userId, provider: "password", providerAccountId: email, secret });
      add("profiles", {
        userId,
        displayName: name,
        onboardingCompleted: true,
        needsOnboarding: false,
        weeklyGoalMinutes: 15,
        timeZone: "UTC",
        isAdmin: false,
      });
      const homeMics = homeMicsFor(c, pool);
      const count = homeMics.length > 0 ? setCountFor(c, MAX_SETS, seed) : 0;
      const bucket =
        count >= 10_000
          ? "10000+"
          : count >= 1000
            ? "1000-9999"
            : count >= 100
              ? "100-999"
              : count >= 10
                ? "10-99"
                : "1-9";
      histogram[bucket]++;
      const sets = homeMics.length > 0 ? generateSets(count, homeMics, nowMs, seed * 31 + c) : [];
      const summary = summarizeSets(sets, today);
      // Oldest first, so creation times follow the sets.
      for (let k = sets.length - 1; k >= 0; k--) {
        const set = sets[k];
        add("performances", {
          userId,
          minutes: set.minutes,
          performedAt: set.performedAt,
          performanceDate: set.performanceDate,
          sceneItemId: micIds[set.micIndex],
          tags: set.tags,
        });
      }
      for (const [date, n] of summary.days) add("performanceDays", { userId, date, sets: n });
      for (const [micIndex, n] of summary.venues)
        add("venueVisits", { userId, sceneItemId: micIds[micIndex], sets: n });
      add("userStats", { userId, ...summary.stats });
      for (const badgeCode of summary.badges) {
        add("userBadges", { userId, badgeCode, awardedAt: sets[0]?.performedAt ?? nowMs });
      }
      for (const micIndex of homeMics) {
        const addedAt = nowMs - DAY_MS;
        // dueAt as schedule.add sets it, so the cleanup sees the steady state.
        const dueAt = entryDueAt(pool[micIndex] as unknown as Doc<"sceneItems">, { addedAt }, nowMs);
        add("scheduleEntries", { userId, sceneItemId: micIds[micIndex], addedAt, dueAt });
        add("favorites", { userId, sceneItemId: micIds[micIndex] });
        // The follower row the triggers keep for a favourite (no notification choices: the default lead).
        add("micFollowers", { micId: micIds[micIndex], userId, leadMinutes: DEFAULT_LEAD_MINUTES });
      }
      totalSets += sets.length;
      totalMinutes += summary.stats.totalMinutes;
      if (c === 0)
        comedian0 = { email, password: SCALE_PASSWORD, sets: sets.length, minutes: summary.stats.totalMinutes, userId };
    }

    for (const [name, items] of activePerCity) add("cities", { name, items });
    // The community totals, one shard each of the shardedCounter component (model/stats.ts).
    const totals = { venues: MICS, minutesLogged: totalMinutes, comedians: COMEDIANS, cities: activePerCity.size };
    const counters = Object.entries(totals).map(([name, value]) => ({
      _id: newId("counters"),
      _creationTime: (creation += 0.25),
      name,
      value,
      shard: 0,
    }));

    const tables = writer.finish(out, { shardedCounter: { counters } });
    return {
      tables,
      documents: Object.values(tables).reduce((a, b) => a + b, 0),
      totalSets,
      totalMinutes,
      cities: activePerCity.size,
      histogram,
      comedian0: comedian0 ?? { email: scaleEmail(0), password: SCALE_PASSWORD, sets: 0, minutes: 0, userId: "" },
      bytes: fs.statSync(out).size,
      ms: Date.now() - started,
    };
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Replaces the database of `dataDir` with the snapshot through the local
 * backend's CLI (`import`; no backend may be running on that data dir).
 * Resolves with the milliseconds it took.
 */
export function importScaleSnapshot(
  snapshot: string,
  dataDir: string,
  functionsDir = path.join(repoRoot, "convex"),
): number {
  fs.mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const result = spawnSync(
    process.execPath,
    ["--max-old-space-size=8192", backendCli, "import", snapshot, "--data-dir", dataDir, "--functions", functionsDir],
    { cwd: repoRoot, encoding: "utf8", env, maxBuffer: 64 << 20 },
  );
  if (result.status !== 0)
    throw new Error(`import failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return Date.now() - started;
}
