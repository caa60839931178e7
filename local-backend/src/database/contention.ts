/**
 * Contention insight. Convex runs mutations concurrently and retries the ones
 * whose reads another commit overwrote (OCC); a document many transactions
 * write every second is a hot spot there: retries, latency, and at worst
 * "Documents read from or written to the table ... changed while this mutation
 * was being run" failures. Mutations conflict here too (occ.ts), but only when
 * they overlap, and here they run far faster than on Convex, so a hot document
 * can pass unseen: this also counts, per document, the transactions that wrote
 * it in the last second, and warns (once per document per WARN_INTERVAL_MS)
 * when that passes a threshold, naming the table and the functions.
 */
import { intKnob } from "../common/index.js";

/** Transactions per second writing one document above which it is a hot spot. */
export const DEFAULT_CONTENTION_THRESHOLD = 10;

/** The threshold the backend runs with: `LOCAL_BACKEND_CONTENTION_THRESHOLD` (0 turns the warnings off). */
export const contentionThreshold = () =>
  intKnob("LOCAL_BACKEND_CONTENTION_THRESHOLD", DEFAULT_CONTENTION_THRESHOLD, { min: 0 });
const WINDOW_MS = 1000;
const WARN_INTERVAL_MS = 10_000;
/** Documents kept in the table before stale ones are swept. */
const SWEEP_AT = 10_000;

type Record_ = { times: number[]; fns: string[]; warnedAt: number };

export type HotDocument = { table: string; id: string; perSecond: number; functions: string[] };

export class ContentionMonitor {
  private docs = new Map<string, Record_>();
  /** Warnings logged since start. */
  warnings = 0;
  /** The documents warned about, most recent last (at most 20). */
  readonly hot: HotDocument[] = [];

  constructor(
    private readonly warn: (line: string) => void,
    readonly threshold = DEFAULT_CONTENTION_THRESHOLD,
  ) {}

  /** One committed transaction wrote these documents; `fn` is the function that ran it. */
  record(writes: { table: string; id: string }[], fn: string, now = Date.now()): void {
    if (this.threshold <= 0) return;
    for (const { table, id } of writes) {
      let rec = this.docs.get(id);
      if (!rec) this.docs.set(id, (rec = { times: [], fns: [], warnedAt: 0 }));
      rec.times.push(now);
      rec.fns.push(fn);
      let drop = 0;
      while (drop < rec.times.length && rec.times[drop] <= now - WINDOW_MS) drop++;
      if (drop > 0) {
        rec.times.splice(0, drop);
        rec.fns.splice(0, drop);
      }
      if (rec.times.length > this.threshold && now - rec.warnedAt >= WARN_INTERVAL_MS) {
        rec.warnedAt = now;
        this.warnings++;
        const functions = [...new Set(rec.fns)];
        this.hot.push({ table, id, perSecond: rec.times.length, functions });
        if (this.hot.length > 20) this.hot.shift();
        this.warn(
          `Warning: contention: document ${id} in table "${table}" was written by ${rec.times.length} ` +
            `transactions in the last second (threshold ${this.threshold}), by ${functions.join(", ")}. ` +
            `On Convex, mutations writing one document concurrently conflict and retry; ` +
            `consider sharding it (e.g. @convex-dev/sharded-counter) or writing it less often.`,
        );
      }
    }
    if (this.docs.size > SWEEP_AT) {
      for (const [id, rec] of this.docs) {
        if (rec.times.length === 0 || rec.times[rec.times.length - 1] <= now - WINDOW_MS) this.docs.delete(id);
      }
    }
  }

  stats(): { warnings: number; threshold: number; hot: HotDocument[] } {
    return { warnings: this.warnings, threshold: this.threshold, hot: [...this.hot] };
  }
}
