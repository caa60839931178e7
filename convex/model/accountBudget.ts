/** What one account-deletion batch may still use of Convex's transaction limits (README.md). */
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
