import type { TransactionMetrics } from "convex/server";
import { describe, expect, test } from "vitest";
import type { MutationCtx } from "./_generated/server";
import { DeletionBudget, UNMEASURED_LIMIT } from "./model/accountBudget";

/** A transaction's figures with `remaining` of each limited resource left. */
function metrics(remaining: { queries: number; reads: number; writes: number }): TransactionMetrics {
  const m = (left: number) => ({ used: 0, remaining: left });
  return {
    bytesRead: m(16 << 20),
    bytesWritten: m(16 << 20),
    databaseQueries: m(remaining.queries),
    documentsRead: m(remaining.reads),
    documentsWritten: m(remaining.writes),
    functionsScheduled: m(1000),
    scheduledFunctionArgsBytes: m(16 << 20),
    filesWritten: m(1000),
    fileWriteBytes: m(1 << 30),
    filesRead: m(1000),
    fileReadBytes: m(1 << 30),
  };
}

const ctxWith = (meta: unknown) => ({ meta }) as Pick<MutationCtx, "meta">;

const checkIn = { queries: 6, reads: 6, writes: 2 };

describe("a deletion batch's budget", () => {
  test("measured: work fits while the transaction has room for it and a margin", async () => {
    let left = { queries: 4096, reads: 32_000, writes: 16_000 };
    const budget = new DeletionBudget(ctxWith({ getTransactionMetrics: async () => metrics(left) }), 1000);
    expect(await budget.fits(checkIn, 1)).toBe(true);
    left = { queries: 100, reads: 32_000, writes: 16_000 };
    expect(await budget.fits({ queries: 30, reads: 30, writes: 10 })).toBe(true);
    expect(await budget.fits({ queries: 40, reads: 30, writes: 10 })).toBe(false);
    left = { queries: 4096, reads: 32_000, writes: 16_000 };
    // Bytes read are counted too: 4 KiB a document at most.
    const fewBytes = metrics(left);
    fewBytes.bytesRead.remaining = 100 * 4096;
    const tight = new DeletionBudget(ctxWith({ getTransactionMetrics: async () => fewBytes }), 1000);
    expect(await tight.fits({ queries: 1, reads: 1000, writes: 0 })).toBe(false);
  });

  test("the rows cap holds whatever the metrics say", async () => {
    const budget = new DeletionBudget(
      ctxWith({ getTransactionMetrics: async () => metrics({ queries: 4096, reads: 32_000, writes: 16_000 }) }),
      10,
    );
    expect(await budget.fits(checkIn, 10)).toBe(true);
    budget.spend(8);
    expect(budget.rowsLeft).toBe(2);
    expect(await budget.fits(checkIn, 3)).toBe(false);
  });

  test.each([
    [
      "a backend without the syscall",
      { getTransactionMetrics: () => Promise.reject(new Error("Unknown async operation")) },
    ],
    ["no ctx.meta", undefined],
  ])("unmeasured (%s): the pieces' own costs are summed against half the limits", async (_, meta) => {
    const budget = new DeletionBudget(ctxWith(meta), 100_000);
    // A recount of 1,005 index ranges fits once with its check-ins; twice it would pass the 2,048 allowed.
    const recount = { queries: 1005, reads: 1005, writes: 1 };
    expect(await budget.fits(recount)).toBe(true);
    expect(await budget.fits(recount)).toBe(false);
    // Smaller pieces still fit until the sum, with the margin, reaches the allowance.
    let fitted = 0;
    while (await budget.fits(checkIn, 1)) fitted++;
    const margin = 64;
    expect(fitted).toBe(Math.floor((UNMEASURED_LIMIT.queries - margin - 1005) / checkIn.queries));
  });
});
