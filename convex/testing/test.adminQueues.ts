/** The admin queues read as the admin screen reads them: every page, in order (claims: pending first, then reviewed). */
import type { FunctionReturnType } from "convex/server";
import { api } from "../_generated/api";
import type { TestUser } from "./test.setup";

/** The first page's options, for calls that are refused before any reading. */
export const FIRST_PAGE = { paginationOpts: { numItems: 50, cursor: null } };

type Asker = TestUser["asUser"];
type ReportPage = FunctionReturnType<typeof api.reports.list>;
type ClaimPage = FunctionReturnType<typeof api.claims.list>;

/** Every open report, newest first, read `pageSize` at a time. */
export async function allOpenReports(admin: Asker, pageSize = 50) {
  const all: ReportPage["page"] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: ReportPage = await admin.query(api.reports.list, { paginationOpts: { numItems: pageSize, cursor } });
    all.push(...page.page);
    if (page.isDone) return all;
    cursor = page.continueCursor;
  }
}

/** Every claim: the pending ones newest first, then the reviewed ones newest first, `pageSize` at a time. */
export async function allClaims(admin: Asker, pageSize = 50) {
  const all: ClaimPage["page"] = [];
  for (const queue of ["pending", "reviewed"] as const) {
    let cursor: string | null = null;
    for (;;) {
      const page: ClaimPage = await admin.query(api.claims.list, {
        queue,
        paginationOpts: { numItems: pageSize, cursor },
      });
      all.push(...page.page);
      if (page.isDone) break;
      cursor = page.continueCursor;
    }
  }
  return all;
}
