/**
 * The `micFollowers` rows against the favourites, schedule entries and
 * notification choices they follow: each row is where a sync would put it, and
 * every favourite and unplayed schedule entry has its row.
 */
import type { Id } from "../../_generated/dataModel";
import { followerRowProblems, missingFollower } from "../micFollowers";
import { checkLinks, checkRows, type PageCheck, type PageCtx } from "./page";

/** Adds a problem when a favourite's or unplayed entry's follower row is missing (both ends existing). */
export async function checkFollower(p: PageCtx, userId: Id<"users">, micId: Id<"sceneItems">): Promise<void> {
  const [userOk, micOk] = await Promise.all([p.exists.user(userId), p.exists.item(micId)]);
  if (userOk && micOk) p.problems.push(...(await missingFollower(p.ctx, userId, micId)));
}

const micFollowers: PageCheck = (p) =>
  checkRows(p, "micFollowers", async (r) => {
    await checkLinks(p, "micFollowers", { _id: r._id, userId: r.userId, itemId: r.micId });
    const [userOk, micOk] = await Promise.all([p.exists.user(r.userId), p.exists.item(r.micId)]);
    if (userOk && micOk) p.problems.push(...(await followerRowProblems(p.ctx, r)));
  });

export const followerPages = { micFollowers };
