/**
 * `npm run bench -- --only-notify`: "list opens" at national size. 10,000 mics
 * (tests/bench/scaleGenerators.ts: US metros, their own time zones, 70% in-person
 * sign-up) and 100,000 follows: 20,000 comedians follow 5 mics each, the mics
 * drawn with a long tail (a few have thousands of followers, most a handful), each
 * comedian with a lead time (120/60/30/15 minutes, or list openings off) and a
 * device subscribed (VAPID keys set, so each notice is a push too). The snapshot
 * holds the follower rows and the alarms as the app keeps them (the alarms from
 * the app's own `alarmFor`, a month ahead so the real clock's cron never fires
 * them). Then the busiest minute of that week is run through the app's code (the
 * probe tests/bench/notifyProbe.ts): the cron's transaction, then every fan-out
 * batch it starts, one after another over HTTP. Prints the documents each read,
 * their sum, and the run's time, beside the documents the whole following of the
 * fired mics would cost. Asserts nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import webpush from "web-push";
import type { Doc } from "@convex/_generated/dataModel";
import { LEAD_MINUTES } from "@convex/lib/notificationRules";
import { ALARM_BATCH, alarmFor, FAN_OUT_BATCH, type FanOutJob } from "@convex/model/notificationFanOut";
import { type Backend, startBackend } from "../local-backend/harness";
import { fmt, ms, row, secs } from "./options";
import { adminRunner, benchModule, functionsCopy } from "./benchFunctions";
import { importScaleSnapshot } from "./scaleData";
import { generateMic, rng } from "./scaleGenerators";

const MICS = 10_000;
const COMEDIANS = 20_000;
const FOLLOWS_EACH = 5;
const MINUTE = 60_000;
/** Lead times comedians choose (null: list openings off), with their shares. */
const LEADS: Array<[number | null, number]> = [
  [120, 0.1],
  [60, 0.25],
  [30, 0.45],
  [15, 0.15],
  [null, 0.05],
];
/**
 * Targets. Per batch: its followers with their choices, device and the hour's pushes
 * (3 documents each here) and a little more; per cron transaction 6 an alarm (the
 * alarm, its mic, its move), 100 alarms at most: both far inside Convex's 32,000. Per run: 3 a follower due and 6 an alarm fired, so it grows with
 * who is told and never with the whole following. Time: done well inside the
 * minute, before the next run of the cron (and the list time) comes.
 */
const PER_TRANSACTION = 3 * FAN_OUT_BATCH + 10;
const perRun = (due: number, alarms: number) => 3 * due + 6 * alarms;
const RUN_TARGET_MS = 60_000;

type Mic = Doc<"sceneItems">;

/** The national scene with its followers, and the busiest minute of the week a month ahead. */
function world(weekStart: number) {
  let counter = 10_000;
  const newId = (table: string) => (counter++).toString().padStart(32 - table.length, "0") + table;
  let creation = weekStart - 400 * 24 * 60 * MINUTE;
  const tables: Record<string, Array<Record<string, unknown>>> = {};
  const add = (table: string, fields: Record<string, unknown>): string => {
    const _id = newId(table);
    (tables[table] ??= []).push({ _id, _creationTime: (creation += 0.25), ...fields });
    return _id;
  };
  const mics: Mic[] = [];
  for (let i = 0; i < MICS; i++) {
    const fields = generateMic(i, 7);
    const _id = add("sceneItems", fields);
    mics.push({ ...fields, _id, _creationTime: 0 } as unknown as Mic);
  }
  // A long tail: mic k (in a shuffled order) is drawn with weight 1 / (k + 1)^0.8.
  const random = rng(2026);
  const order = mics.map((_, i) => i).sort(() => random() - 0.5);
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 0; k < MICS; k++) cumulative.push((sum += 1 / (k + 1) ** 0.8));
  const draw = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = MICS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo];
  };
  const vapidKey = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U";
  const followersAt = new Map<string, Map<number, number>>();
  const followersOf = new Map<string, number>();
  for (let c = 0; c < COMEDIANS; c++) {
    const userId = add("users", { name: `Notify Comic ${c}` });
    const u = random();
    let acc = 0;
    const lead = LEADS.find(([, share]) => (acc += share) >= u)?.[0] ?? 30;
    add("notificationPrefs", {
      userId,
      listOpens: lead !== null,
      nights: true,
      lottery: true,
      onDeck: true,
      claims: true,
      sets: true,
      leadMinutes: lead ?? 30,
      timeZone: mics[c % MICS].timeZone ?? "America/New_York",
    });
    add("pushSubscriptions", {
      userId,
      endpoint: `https://push.bench.invalid/device/${c}`,
      p256dh: vapidKey,
      auth: "c2VjcmV0LWF1dGgtMTY",
    });
    const chosen = new Set<number>();
    while (chosen.size < FOLLOWS_EACH) chosen.add(draw());
    for (const i of chosen) {
      const micId = mics[i]._id;
      add("favorites", { userId, sceneItemId: micId });
      add("micFollowers", { micId, userId, leadMinutes: lead });
      followersOf.set(micId, (followersOf.get(micId) ?? 0) + 1);
      if (lead !== null) {
        const byLead = followersAt.get(micId) ?? new Map<number, number>();
        byLead.set(lead, (byLead.get(lead) ?? 0) + 1);
        followersAt.set(micId, byLead);
      }
    }
  }

  // The busiest minute of the week: the most followers due, over every mic's list time and lead.
  const due = new Map<number, { followers: number; alarms: number; following: number }>();
  for (const mic of mics) {
    const first = alarmFor(mic, weekStart);
    if (first === null) continue;
    for (const lead of LEAD_MINUTES) {
      const at = first.listAt - lead * MINUTE;
      const slot = due.get(at) ?? { followers: 0, alarms: 0, following: 0 };
      slot.followers += followersAt.get(mic._id)?.get(lead) ?? 0;
      slot.alarms += 1;
      slot.following += followersOf.get(mic._id) ?? 0;
      due.set(at, slot);
    }
  }
  const [busiest, expected] = [...due.entries()]
    .filter(([at]) => at > weekStart + 3 * 60 * MINUTE)
    .sort((a, b) => b[1].followers - a[1].followers)[0];
  // The alarms as the cron leaves them just before that minute.
  for (const mic of mics) {
    const alarm = alarmFor(mic, busiest - MINUTE / 2);
    if (alarm !== null) add("listAlarms", { micId: mic._id, ...alarm });
  }
  const counts = Object.fromEntries(Object.entries(tables).map(([t, docs]) => [t, docs.length]));
  return { tables, busiest, expected, counts, maxFollowing: Math.max(...followersOf.values()) };
}

export async function notifyBench(): Promise<void> {
  console.log('\n== Notifications: "list opens" at national size (10,000 mics, 100,000 follows) ==');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-bench-notify-"));
  const dataDir = path.join(work, "data");
  let backend: Backend | null = null;
  try {
    const generated = performance.now();
    // The start of a week five weeks ahead (weeks since the epoch begin on a Thursday, 00:00 UTC):
    // the real clock's cron never reaches these alarms.
    const weekStart = Math.floor(Date.now() / (7 * 24 * 60 * MINUTE)) * 7 * 24 * 60 * MINUTE + 5 * 7 * 24 * 60 * MINUTE;
    const w = world(weekStart);
    const snapshot = path.join(work, "snapshot.json");
    fs.writeFileSync(
      snapshot,
      JSON.stringify({ format: "stagetime-local-backend-snapshot", version: 1, tables: w.tables, files: {} }),
    );
    console.log(
      `generated in ${secs(performance.now() - generated)}: ` +
        Object.entries(w.counts)
          .map(([t, n]) => `${fmt(n)} ${t}`)
          .join(", ") +
        `; the most followed mic has ${fmt(w.maxFollowing)}`,
    );
    const functionsDir = functionsCopy(work, { "benchNotify.ts": benchModule("notifyProbe.ts") });
    const importMs = importScaleSnapshot(snapshot, dataDir, functionsDir);
    fs.rmSync(snapshot, { force: true });
    console.log(`imported in ${secs(importMs)}`);
    const vapid = webpush.generateVAPIDKeys();
    backend = await startBackend({
      functionsDir,
      dataDir,
      nodeArgs: ["--max-old-space-size=8192"],
      startTimeoutMs: 10 * 60_000,
    });
    for (const [name, value] of [
      ["VAPID_PUBLIC_KEY", vapid.publicKey],
      ["VAPID_PRIVATE_KEY", vapid.privateKey],
      ["VAPID_SUBJECT", "mailto:bench@stagetime.example"],
      // The bench's devices live on a host that never answers (no push service here).
      ["PUSH_ENDPOINT_HOSTS", "push.bench.invalid"],
    ]) {
      const r = await backend.cli(["env", "set", name, value]);
      if (r.code !== 0) throw new Error(r.stderr);
    }
    const run = adminRunner(backend);

    type Measures = { jobs: FanOutJob[]; pushes: number; documentsRead: number; documentsWritten: number };
    const nowMs = w.busiest;
    const started = performance.now();
    const cronReads: number[] = [];
    const batchReads: number[] = [];
    const batchTimes: number[] = [];
    const queue: FanOutJob[] = [];
    let fired = 0;
    let told = 0;
    let pushes = 0;
    for (let more = true; more;) {
      const r = await run<{ fired: number; more: boolean } & Measures>("benchNotify:fire", { nowMs });
      cronReads.push(r.documentsRead);
      fired += r.fired;
      queue.push(...r.jobs);
      more = r.more;
    }
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const t0 = performance.now();
      const r = await run<{ told: number; next: FanOutJob | null } & Measures>("benchNotify:batch", { job, nowMs });
      batchTimes.push(performance.now() - t0);
      batchReads.push(r.documentsRead);
      told += r.told;
      pushes += r.pushes;
      if (r.next !== null) queue.push(r.next);
    }
    const runMs = performance.now() - started;

    const total = [...cronReads, ...batchReads].reduce((a, b) => a + b, 0);
    const budget = perRun(told, fired);
    const when = new Date(nowMs).toISOString().replace(/:00\.000Z$/, " UTC");
    console.log(
      `\nBusiest minute of the week (${when}): ${fmt(fired)} alarms fire, ${fmt(w.expected.followers)} followers due ` +
        `(${fmt(told)} told, ${fmt(pushes)} pushes queued), among ${fmt(w.expected.following)} followers of those mics.`,
    );
    const widths = [44, 14, 30];
    console.log(row(["list opens, one run", "figure", "target"], widths));
    // A figure with no target (ok null) is shown for what it says, with no verdict.
    const line = (label: string, value: string, target: string, ok: boolean | null) =>
      console.log(row([label, value, ok === null ? "—" : `${target} ${ok ? "ok" : "MISSED"}`], widths));
    // Fewer reads would look better if the fan-out skipped people: everyone due must be told.
    line("followers told", fmt(told), `= ${fmt(w.expected.followers)} due`, told === w.expected.followers);
    line("transactions (cron + fan-out batches)", `${cronReads.length} + ${batchReads.length}`, "", null);
    const cronTotal = cronReads.reduce((a, b) => a + b, 0);
    line("documents read, cron", fmt(cronTotal), `<= ${fmt(6 * fired)}`, cronTotal <= 6 * fired);
    const maxBatch = Math.max(...batchReads);
    const maxCron = Math.max(...cronReads);
    line("documents read, most in one batch", fmt(maxBatch), `<= ${fmt(PER_TRANSACTION)}`, maxBatch <= PER_TRANSACTION);
    line(
      "documents read, most in one cron transaction",
      fmt(maxCron),
      `<= ${fmt(6 * ALARM_BATCH)}`,
      maxCron <= 6 * ALARM_BATCH,
    );
    line("documents read, whole run", fmt(total), `<= ${fmt(budget)} (3/due + 6/alarm)`, total <= budget);
    line(
      "  the fired mics' whole following would read",
      fmt(2 * w.expected.following),
      "(2 a follower: row + choices)",
      null,
    );
    line(
      "time, whole run (one transaction at a time)",
      secs(runMs),
      `<= ${secs(RUN_TARGET_MS)}`,
      runMs <= RUN_TARGET_MS,
    );
    const sorted = [...batchTimes].sort((a, b) => a - b);
    line(
      "time, a batch p50 / max",
      `${ms(sorted[sorted.length >> 1] ?? 0)} / ${ms(sorted[sorted.length - 1] ?? 0)}`,
      "",
      null,
    );
    console.log(
      "\nTimes are HTTP round trips to the local backend on this machine, one transaction after another " +
        "(Convex runs the scheduled batches in parallel); on a shared, loaded machine they are upper bounds.",
    );
  } finally {
    await backend?.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
