/**
 * How much of one transaction a batch of account deletion may still use,
 * measured in what Convex limits per transaction (docs "Limits"; the
 * backend's `TRANSACTION_MAX_*` knobs): index ranges read (4,096), documents
 * read (32,000) and their bytes (16 MiB), documents written (16,000) and
 * their bytes (16 MiB). The transaction's own figures come from
 * `ctx.meta.getTransactionMetrics()` (convex 1.x `MutationMeta`, answered by
 * Convex's `1.0/getTransactionMetrics` syscall), so whatever the batch's
 * triggers read is counted, and before each piece of work the batch checks
 * that the most that piece can cost still fits. A deployment that cannot
 * answer (an older backend) gets a budget counted here instead: the sum of
 * the most each piece can cost, against half of each limit. The fifth limit,
 * 1 s of JavaScript per mutation, has no metric: a cap on the rows removed
 * per batch bounds it.
 */
import type { TransactionMetrics } from "convex/server";
import type { MutationCtx } from "../_generated/server";

/** The most a piece of work can cost, in the transaction's limited resources. */
export type Cost = { queries: number; reads: number; writes: number };

/** `cost` done `times` times. */
export function times(cost: Cost, n: number): Cost {
  return { queries: cost.queries * n, reads: cost.reads * n, writes: cost.writes * n };
}

/** Two pieces of work. */
export function plus(a: Cost, b: Cost): Cost {
  return { queries: a.queries + b.queries, reads: a.reads + b.reads, writes: a.writes + b.writes };
}

/** Bytes assumed per document read or written (this app's rows are a few hundred bytes; a mic about 1 KiB). */
const BYTES_PER_DOC = 4 * 1024;

/** Kept free besides each piece's own cost: the small reads between pieces (the next rows, a list, a mic). */
const MARGIN: Cost = { queries: 64, reads: 512, writes: 64 };

/**
 * Without metrics: half of Convex's limits (index ranges, documents read,
 * documents written), the other half left for what is not counted (the
 * account's own removal, the reads between pieces).
 */
export const UNMEASURED_LIMIT: Cost = { queries: 4096 / 2, reads: 32_000 / 2, writes: 16_000 / 2 };

/** The transaction's figures, or null when the deployment has none to give. */
async function metricsOf(ctx: Pick<MutationCtx, "meta">): Promise<TransactionMetrics | null> {
  // `meta` is typed as always there; a bundle or backend older than the metrics may still lack it.
  const meta = ctx.meta as Partial<MutationCtx["meta"]> | undefined;
  if (typeof meta?.getTransactionMetrics !== "function") return null;
  try {
    return await meta.getTransactionMetrics();
  } catch {
    // Convex answers an unknown syscall with an error; nothing was read or written.
    return null;
  }
}

/** A batch's allowance: the transaction's remaining headroom and at most `maxRows` rows removed. */
export class DeletionBudget {
  private rows = 0;
  /** What the pieces let through could cost at most (the measure when there are no metrics). */
  private spent: Cost = { queries: 0, reads: 0, writes: 0 };
  /** False once the deployment gave no metrics (asked once a batch). */
  private measured = true;

  constructor(
    private readonly ctx: Pick<MutationCtx, "meta">,
    private readonly maxRows: number,
  ) {}

  /** Rows the batch may still remove. */
  get rowsLeft(): number {
    return Math.max(0, this.maxRows - this.rows);
  }

  /** Counts `n` rows removed. */
  spend(n: number): void {
    this.rows += n;
  }

  /** Whether work costing at most `cost` (and `rows` more rows) still fits in this transaction; if so, it is counted. */
  async fits(cost: Cost, rows = 0): Promise<boolean> {
    if (rows > this.rowsLeft) return false;
    const need = plus(cost, MARGIN);
    const m = this.measured ? await metricsOf(this.ctx) : null;
    let ok: boolean;
    if (m !== null) {
      ok =
        m.databaseQueries.remaining >= need.queries &&
        m.documentsRead.remaining >= need.reads &&
        m.bytesRead.remaining >= need.reads * BYTES_PER_DOC &&
        m.documentsWritten.remaining >= need.writes &&
        m.bytesWritten.remaining >= need.writes * BYTES_PER_DOC;
    } else {
      this.measured = false;
      const total = plus(this.spent, need);
      ok =
        total.queries <= UNMEASURED_LIMIT.queries &&
        total.reads <= UNMEASURED_LIMIT.reads &&
        total.writes <= UNMEASURED_LIMIT.writes;
    }
    if (ok) this.spent = plus(this.spent, cost);
    return ok;
  }
}
