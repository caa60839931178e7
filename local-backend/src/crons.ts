/**
 * Runs the jobs of `crons.ts` on the real clock while the backend runs. Like
 * Convex, runs missed while the backend was down are not replayed: each job's
 * next run is computed from the time the backend (re)loads the crons.
 */
import { jsonToConvex } from "convex/values";
import type { Engine } from "./engine.js";

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

export class CronRunner {
  private timers = new Map<string, NodeJS.Timeout>();
  private generation = 0;

  constructor(private readonly engine: Engine) {}

  stop(): void {
    this.generation++;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** (Re)reads crons.ts and schedules every job from now. */
  async reload(): Promise<void> {
    this.stop();
    if (!this.engine.moduleNames().includes("crons")) return;
    let jobs: Record<string, Job>;
    try {
      const mod = await this.engine.loadModule("crons");
      jobs = mod.default?.crons ?? {};
    } catch (error) {
      this.engine.logError(`crons.ts failed to load: ${String(error)}`);
      return;
    }
    const generation = this.generation;
    for (const [id, job] of Object.entries(jobs)) this.schedule(id, job, Date.now(), generation);
  }

  private schedule(id: string, job: Job, after: number, generation: number): void {
    let at: number;
    try {
      at = nextRun(job.schedule, after);
    } catch (error) {
      this.engine.logError(`cron "${id}": ${(error as Error).message}`);
      return;
    }
    const wait = () => {
      if (generation !== this.generation) return;
      const delay = at - Date.now();
      if (delay > 0) {
        this.timers.set(id, setTimeout(wait, Math.min(delay, 2 ** 31 - 1)));
        return;
      }
      void this.run(id, job).finally(() => {
        if (generation === this.generation) this.schedule(id, job, Math.max(Date.now(), at), generation);
      });
    };
    wait();
  }

  private async run(id: string, job: Job): Promise<void> {
    try {
      const args = jsonToConvex((job.args?.[0] ?? {}) as any) as Record<string, unknown>;
      await this.engine.runAny(job.name, args, { kind: "none" });
    } catch (error) {
      this.engine.logError(`cron "${id}" (${job.name}) failed: ${(error as Error).message ?? String(error)}`);
    }
  }
}
