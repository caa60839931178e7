/**
 * Link invariants of the tables that have no other: every schedule entry,
 * claim and problem report points at an existing mic and user. (The other
 * tables' rows check their links in their own group's pages.)
 */
import type { Doc, Id } from "../../_generated/dataModel";
import { checkLinks, checkRows, type PageCheck } from "./page";

type LinkOnly = "scheduleEntries" | "micClaims" | "problemReports";

/** A page of a table whose only invariant is its links to a user and a mic. */
function linksPage<T extends LinkOnly>(
  table: T,
  links: (row: Doc<T>) => { userId: Id<"users">; itemId?: Id<"sceneItems"> },
): PageCheck {
  return (p) => checkRows(p, table, (r) => checkLinks(p, table, { _id: r._id, ...links(r) }));
}

export const linkPages = {
  scheduleEntries: linksPage("scheduleEntries", (r) => ({ userId: r.userId, itemId: r.sceneItemId })),
  micClaims: linksPage("micClaims", (r) => ({ userId: r.claimantId, itemId: r.micId })),
  problemReports: linksPage("problemReports", (r) => ({ userId: r.reporterId, itemId: r.micId })),
};
