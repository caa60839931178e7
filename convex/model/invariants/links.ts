/**
 * Link invariants of the tables that have no other: every schedule entry,
 * claim and problem report points at an existing mic and user, and an unplayed
 * schedule entry has its follower row. (Other tables check links in their own pages.)
 */
import type { Doc, Id } from "../../_generated/dataModel";
import { checkFollower } from "./followers";
import { checkLinks, checkRows, type PageCheck } from "./page";

type LinkOnly = "micClaims" | "problemReports";

/** A page of a table whose only invariant is its links to a user and a mic. */
function linksPage<T extends LinkOnly>(
  table: T,
  links: (row: Doc<T>) => { userId: Id<"users">; itemId?: Id<"sceneItems"> },
): PageCheck {
  return (p) => checkRows(p, table, (r) => checkLinks(p, table, { _id: r._id, ...links(r) }));
}

export const linkPages = {
  scheduleEntries: ((p) =>
    checkRows(p, "scheduleEntries", async (r) => {
      await checkLinks(p, "scheduleEntries", { _id: r._id, userId: r.userId, itemId: r.sceneItemId });
      if (r.completedAt === undefined) await checkFollower(p, r.userId, r.sceneItemId);
    })) satisfies PageCheck,
  micClaims: linksPage("micClaims", (r) => ({ userId: r.claimantId, itemId: r.micId })),
  problemReports: linksPage("problemReports", (r) => ({ userId: r.reporterId, itemId: r.micId })),
};
