import { internal } from "../_generated/api";
import type { InvariantReport } from "../model/invariants/check";
import type { TestBackend } from "./test.setup";

/**
 * Runs the invariant check to the end (invariants:checkAll, the paged walk
 * over every table, `numItems` rows per page; see model/invariants) and
 * returns whether it passed and the problem lines.
 */
export async function checkAllInvariants(t: TestBackend, numItems?: number): Promise<InvariantReport> {
  const { ok, problems } = await t.action(internal.invariants.checkAll, numItems === undefined ? {} : { numItems });
  return { ok, problems };
}
