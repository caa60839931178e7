/**
 * Runs the jobs of `crons.ts` on the real clock while the backend runs, as
 * Convex's cron executor does (crates/model/src/cron_jobs/next_ts.rs): an
 * interval job first runs when it is deployed, then every interval after its
 * previous scheduled run; a clock schedule runs at its occurrences, pushed back
 * by a random delay drawn once per job (within the minute when the minute is
 * pinned, CRON_SPLAY_SECONDS; within the hour when not) so jobs sharing a
 * schedule do not all fire at once. A reload keeps the next run of every job
 * whose name, function, arguments and schedule did not change. Runs missed
 * while the backend was down are not replayed: a start schedules from now.
 */
import { type JSONValue, jsonToConvex } from "convex/values";
import type { FunctionModule } from "../database/index.js";
import type { Caller } from "./functionContext.js";
import { intKnob } from "../common/index.js";

type Schedule =
  | { type: "interval"; seconds?: number; minutes?: number; hours?: number }
  | { type: "hourly"; minuteUTC?: number }
  | { type: "daily"; hourUTC: number; minuteUTC?: number }
  | { type: "weekly"; dayOfWeek: string; hourUTC: number; minuteUTC?: number }
  | { type: "monthly"; day: number; hourUTC: number; minuteUTC?: number }
  | { type: "cron"; cron: string };

type Job = { name: string; args: unknown[]; schedule: Schedule };

const MINUTE = 60_000;
const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Parses one field of a 5-field cron expression into the allowed values. */
function cronField(spec: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const part of spec.split(",")) {
    const [rangePart, stepPart] = part.split("/");
    const step = stepPart === undefined ? 1 : Number(stepPart);
    let lo = min;
    let hi = max;
    if (rangePart !== "*") {
      const [a, b] = rangePart.split("-");
      lo = Number(a);
      hi = b === undefined ? (stepPart === undefined ? lo : max) : Number(b);
    }
    if (![lo, hi, step].every(Number.isInteger) || step < 1) throw new Error(`Bad cron field "${spec}"`);
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

/** Next time (ms, UTC) strictly after `after` that matches a cron expression. */
export function nextCronTime(expr: string, after: number): number {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`Cron expression must have 5 fields: "${expr}"`);
  const [minutes, hours, days, months, weekdays] = [
    cronField(fields[0], 0, 59),
    cronField(fields[1], 0, 23),
    cronField(fields[2], 1, 31),
    cronField(fields[3], 1, 12),
    cronField(fields[4], 0, 7),
  ];
  if (weekdays.has(7)) weekdays.add(0);
  const dayRestricted = fields[2] !== "*";
  const weekdayRestricted = fields[4] !== "*";
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  for (let i = 0; i < 60 * 24 * 366 * 5; i++) {
    const d = new Date(t);
    const dayOk =
      dayRestricted && weekdayRestricted
        ? days.has(d.getUTCDate()) || weekdays.has(d.getUTCDay())
        : days.has(d.getUTCDate()) && weekdays.has(d.getUTCDay());
    if (months.has(d.getUTCMonth() + 1) && dayOk && hours.has(d.getUTCHours()) && minutes.has(d.getUTCMinutes())) {
      return t;
    }
    t += MINUTE;
  }
  throw new Error(`Cron expression never matches: "${expr}"`);
}

/** Next run after `after` (ms) for a schedule. */
export function nextRun(schedule: Schedule, after: number): number {
  switch (schedule.type) {
    case "interval": {
      const ms = ((schedule.seconds ?? 0) + (schedule.minutes ?? 0) * 60 + (schedule.hours ?? 0) * 3600) * 1000;
      return after + Math.max(ms, 1000);
    }
    case "hourly":
      return nextCronTime(`${schedule.minuteUTC ?? 0} * * * *`, after);
    case "daily":
      return nextCronTime(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} * * *`, after);
    case "weekly": {
      const day = DAYS.indexOf(String(schedule.dayOfWeek).toLowerCase());
      if (day < 0) throw new Error(`Bad day of week "${schedule.dayOfWeek}"`);
      return nextCronTime(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} * * ${day}`, after);
    }
    case "monthly":
      return nextCronTime(`${schedule.minuteUTC ?? 0} ${schedule.hourUTC} ${schedule.day} * *`, after);
    case "cron":
      return nextCronTime(schedule.cron, after);
  }
}

/** The random delay of a clock schedule's runs, in ms (0 for an interval): Convex's cron splay. */
export function splayMs(schedule: Schedule, random: () => number = Math.random): number {
  if (schedule.type === "interval") return 0;
  const pinned = schedule.type === "cron" || schedule.minuteUTC !== undefined;
  const maxSeconds = pinned ? intKnob("CRON_SPLAY_SECONDS", 60, { min: 0 }) : 3600;
  return Math.floor(random() * maxSeconds) * 1000;
}

/** When a job runs next: its first run (`previous` null) or the one after the run scheduled at `previous`. */
export function plannedRun(schedule: Schedule, previous: number | null, now: number, delayMs: number): number {
  if (schedule.type === "interval") return previous === null ? now : nextRun(schedule, previous);
  // The next occurrence on the schedule's own clock, then the job's delay; searched from
  // `now` minus the delay so a run its delay pushed past `now` is not skipped.
  return nextRun(schedule, now - delayMs) + delayMs;
}

type Planned = { spec: string; at: number; delayMs: number };

/** What the cron runner uses of the engine: the modules, running a function, the error log. */
export type CronHost = {
  moduleNames(): string[];
  loadModule(modulePath: string): Promise<FunctionModule>;
  runAny(udfPath: string, args: Record<string, unknown>, caller?: Caller): Promise<unknown>;
  logError(line: string): void;
};

export class CronRunner {
  private timers = new Map<string, NodeJS.Timeout>();
  private generation = 0;
  /** Each job's definition (as JSON), next run and delay, kept across reloads. */
  private planned = new Map<string, Planned>();

  constructor(private readonly engine: CronHost) {}

  stop(): void {
    this.generation++;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Each job's next run (ms), for tests. */
  nextRuns(): Map<string, number> {
    return new Map([...this.planned].map(([id, p]) => [id, p.at]));
  }

  /** (Re)reads crons.ts: unchanged jobs keep their next run, new or changed ones are planned from now. */
  async reload(): Promise<void> {
    this.stop();
    let jobs: Record<string, Job> = {};
    if (this.engine.moduleNames().includes("crons")) {
      try {
        const mod = await this.engine.loadModule("crons");
        jobs = (mod.default as { crons?: Record<string, Job> } | undefined)?.crons ?? {};
      } catch (error) {
        this.engine.logError(`crons.ts failed to load: ${String(error)}`);
        return;
      }
    }
    const generation = this.generation;
    const now = Date.now();
    const planned = new Map<string, Planned>();
    for (const [id, job] of Object.entries(jobs)) {
      const spec = JSON.stringify(job);
      const kept = this.planned.get(id);
      if (kept?.spec === spec) {
        planned.set(id, kept);
        continue;
      }
      try {
        const delayMs = splayMs(job.schedule);
        planned.set(id, { spec, delayMs, at: plannedRun(job.schedule, null, now, delayMs) });
      } catch (error) {
        this.engine.logError(`cron "${id}": ${(error as Error).message}`);
      }
    }
    this.planned = planned;
    for (const [id, job] of Object.entries(jobs)) if (planned.has(id)) this.wait(id, job, generation);
  }

  private wait(id: string, job: Job, generation: number): void {
    if (generation !== this.generation) return;
    const plan = this.planned.get(id)!;
    const delay = plan.at - Date.now();
    if (delay > 0) {
      this.timers.set(
        id,
        setTimeout(() => this.wait(id, job, generation), Math.min(delay, 2 ** 31 - 1)),
      );
      return;
    }
    void this.run(id, job).finally(() => {
      if (generation !== this.generation || this.planned.get(id) !== plan) return;
      try {
        plan.at = plannedRun(job.schedule, plan.at, Date.now(), plan.delayMs);
      } catch (error) {
        this.engine.logError(`cron "${id}": ${(error as Error).message}`);
        return;
      }
      this.wait(id, job, generation);
    });
  }

  private async run(id: string, job: Job): Promise<void> {
    try {
      const args = jsonToConvex((job.args?.[0] ?? {}) as JSONValue) as Record<string, unknown>;
      await this.engine.runAny(job.name, args, { kind: "none" });
    } catch (error) {
      this.engine.logError(`cron "${id}" (${job.name}) failed: ${(error as Error).message ?? String(error)}`);
    }
  }
}
