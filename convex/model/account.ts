/**
 * Data export and account deletion (profile page). Export returns everything
 * the comedian owns; deletion removes it all, keeps the mics they added for
 * the community (unlinked from them) and keeps the site figures right.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { getProfile } from "./profiles";

/** Most rows of one kind an export reads (far beyond any real comedian). */
const EXPORT_LIMIT = 10_000;
/** Rows removed per transaction while deleting an account; the rest continue in a scheduled batch. */
export const DELETE_BATCH_SIZE = 1000;

function plain<T extends { _id: unknown; _creationTime: number }>(doc: T) {
  const { _id, _creationTime, ...rest } = doc;
  return { id: _id as string, createdAt: _creationTime, ...rest };
}

/** Everything the comedian owns, as plain JSON (the client saves it as stagetime-export.json). */
export async function exportData(ctx: QueryCtx, userId: Id<"users">) {
  const [user, profile, stats] = await Promise.all([
    ctx.db.get("users", userId),
    getProfile(ctx, userId),
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  const [sets, schedule, favorites, checkIns, badges, claims, reports, micsAdded] = await Promise.all([
    ctx.db
      .query("performances")
      .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
      .order("desc")
      .take(EXPORT_LIMIT),
    ctx.db
      .query("scheduleEntries")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .take(EXPORT_LIMIT),
    ctx.db
      .query("favorites")
      .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
      .take(EXPORT_LIMIT),
    ctx.db
      .query("checkIns")
      .withIndex("by_user_and_time", (q) => q.eq("userId", userId))
      .order("desc")
      .take(EXPORT_LIMIT),
    ctx.db
      .query("userBadges")
      .withIndex("by_user_and_code", (q) => q.eq("userId", userId))
      .take(EXPORT_LIMIT),
    ctx.db
      .query("micClaims")
      .withIndex("by_claimant", (q) => q.eq("claimantId", userId))
      .take(EXPORT_LIMIT),
    ctx.db
      .query("problemReports")
      .withIndex("by_reporter", (q) => q.eq("reporterId", userId))
      .take(EXPORT_LIMIT),
    ctx.db
      .query("sceneItems")
      .withIndex("by_createdBy", (q) => q.eq("createdBy", userId))
      .take(EXPORT_LIMIT),
  ]);

  // Name the mics the rows point at, so the file reads without the database.
  const itemIds = new Set<Id<"sceneItems">>();
  for (const s of sets) if (s.sceneItemId) itemIds.add(s.sceneItemId);
  for (const r of [...schedule, ...favorites, ...checkIns]) itemIds.add(r.sceneItemId);
  for (const r of [...claims, ...reports]) itemIds.add(r.micId);
  const items = new Map<string, Doc<"sceneItems"> | null>(
    await Promise.all([...itemIds].map(async (id) => [id as string, await ctx.db.get("sceneItems", id)] as const)),
  );
  const mic = (id: Id<"sceneItems"> | undefined) => {
    const item = id ? items.get(id) : undefined;
    return item ? { title: item.title, venueName: item.venueName, city: item.city } : null;
  };

  const photoUrl = profile?.photoStorageId ? await ctx.storage.getUrl(profile.photoStorageId) : null;
  return {
    format: "stagetime-export",
    version: 1,
    account: {
      id: userId as string,
      email: user?.email ?? null,
      name: user?.name ?? null,
      memberSince: user?._creationTime ?? null,
    },
    profile: profile
      ? {
          displayName: profile.displayName,
          weeklyGoalMinutes: profile.weeklyGoalMinutes,
          defaultCity: profile.defaultCity ?? null,
          timeZone: profile.timeZone ?? null,
          photoUrl,
          onboardingCompleted: profile.onboardingCompleted,
        }
      : null,
    stats: stats
      ? {
          totalMinutes: stats.totalMinutes,
          totalSets: stats.totalSets,
          uniqueVenues: stats.uniqueVenues,
          currentStreak: stats.currentStreak,
          longestStreak: stats.longestStreak,
          lastSetDate: stats.lastSetDate ?? null,
          venuesAdded: stats.venuesAdded,
        }
      : null,
    sets: sets.map((s) => ({
      id: s._id as string,
      performedAt: s.performedAt,
      performanceDate: s.performanceDate,
      minutes: s.minutes,
      venueName: items.get(s.sceneItemId ?? "")?.venueName ?? s.venueName ?? null,
      sceneItemId: (s.sceneItemId as string | undefined) ?? null,
      mic: mic(s.sceneItemId),
      notes: s.notes ?? null,
      tags: s.tags,
    })),
    schedule: schedule.map((r) => ({
      sceneItemId: r.sceneItemId as string,
      mic: mic(r.sceneItemId),
      addedAt: r.addedAt,
      completedAt: r.completedAt ?? null,
    })),
    favorites: favorites.map((r) => ({ sceneItemId: r.sceneItemId as string, mic: mic(r.sceneItemId) })),
    checkIns: checkIns.map((r) => ({
      sceneItemId: r.sceneItemId as string,
      mic: mic(r.sceneItemId),
      checkedInAt: r.checkedInAt,
      localDate: r.localDate,
    })),
    badges: badges.map((b) => ({ code: b.badgeCode, awardedAt: b.awardedAt })),
    claims: claims.map((c) => ({
      micId: c.micId as string,
      mic: mic(c.micId),
      message: c.message ?? null,
      status: c.status,
      submittedAt: c._creationTime,
      reviewedAt: c.reviewedAt ?? null,
    })),
    problemReports: reports.map((r) => ({
      micId: r.micId as string,
      mic: mic(r.micId),
      kind: r.kind,
      note: r.note ?? null,
      status: r.status,
      submittedAt: r._creationTime,
    })),
    micsAdded: micsAdded.map((m) => {
      const {
        createdBy: _createdBy,
        searchText: _searchText,
        geohash: _geohash,
        areaCell: _areaCell,
        ...rest
      } = plain(m);
      return rest;
    }),
  };
}

/**
 * Removes the account itself in one transaction: stats row and profile (the
 * community totals lose their minutes and one comedian, model/statsTriggers),
 * photo, sign-in accounts, sessions, refresh tokens and the user row. The
 * comedian's other rows go in {@link purgeOwnedRows}.
 */
export async function removeAccount(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const [profile, stats] = await Promise.all([
    getProfile(ctx, userId),
    ctx.db
      .query("userStats")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .unique(),
  ]);
  if (stats !== null) await ctx.db.delete("userStats", stats._id);
  if (profile !== null) {
    if (profile.photoStorageId !== undefined) {
      const photo = await ctx.db.system.get("_storage", profile.photoStorageId);
      if (photo !== null) await ctx.storage.delete(profile.photoStorageId);
    }
    await ctx.db.delete("profiles", profile._id);
  }

  const [accounts, sessions] = await Promise.all([
    ctx.db
      .query("authAccounts")
      .withIndex("userIdAndProvider", (q) => q.eq("userId", userId))
      .take(100),
    ctx.db
      .query("authSessions")
      .withIndex("userId", (q) => q.eq("userId", userId))
      .take(DELETE_BATCH_SIZE),
  ]);
  for (const account of accounts) {
    const codes = await ctx.db
      .query("authVerificationCodes")
      .withIndex("accountId", (q) => q.eq("accountId", account._id))
      .take(100);
    for (const code of codes) await ctx.db.delete("authVerificationCodes", code._id);
    await ctx.db.delete("authAccounts", account._id);
  }
  for (const session of sessions) {
    const tokens = await ctx.db
      .query("authRefreshTokens")
      .withIndex("sessionId", (q) => q.eq("sessionId", session._id))
      .take(DELETE_BATCH_SIZE);
    for (const token of tokens) await ctx.db.delete("authRefreshTokens", token._id);
    await ctx.db.delete("authSessions", session._id);
  }
  const user = await ctx.db.get("users", userId);
  if (user !== null) await ctx.db.delete("users", userId);
}

/**
 * Deletes up to `budget` of the comedian's remaining rows (sets, days, venue
 * visits, schedule, favourites, check-ins with their mics' counters, badges,
 * claims, reports) and unlinks the mics they added. Returns true once nothing
 * is left, false when another batch is needed.
 */
export async function purgeOwnedRows(
  ctx: MutationCtx,
  userId: Id<"users">,
  budget: number = DELETE_BATCH_SIZE,
): Promise<boolean> {
  let left = budget;

  async function drain<R>(read: (n: number) => Promise<R[]>, remove: (rows: R[]) => Promise<void>): Promise<boolean> {
    if (left <= 0) return false;
    const rows = await read(left + 1);
    const batch = rows.slice(0, left);
    await remove(batch);
    left -= batch.length;
    return rows.length <= batch.length;
  }
  const deleteAll =
    <T extends TableNames>(table: T) =>
    async (rows: Doc<T>[]) => {
      for (const row of rows) await ctx.db.delete(table, row._id);
    };

  const steps: Array<() => Promise<boolean>> = [
    () =>
      drain(
        (n) =>
          ctx.db
            .query("performances")
            .withIndex("by_user_and_performedAt", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("performances"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("performanceDays")
            .withIndex("by_user_and_date", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("performanceDays"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("venueVisits")
            .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("venueVisits"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("scheduleEntries")
            .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("scheduleEntries"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("favorites")
            .withIndex("by_user_and_item", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("favorites"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("checkIns")
            .withIndex("by_user_and_time", (q) => q.eq("userId", userId))
            .take(n),
        // Each mic's check-in count and verification follow (model/micTriggers).
        deleteAll("checkIns"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("listSpots")
            .withIndex("by_user", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("listSpots"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("userBadges")
            .withIndex("by_user_and_code", (q) => q.eq("userId", userId))
            .take(n),
        deleteAll("userBadges"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("micClaims")
            .withIndex("by_claimant", (q) => q.eq("claimantId", userId))
            .take(n),
        deleteAll("micClaims"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("problemReports")
            .withIndex("by_reporter", (q) => q.eq("reporterId", userId))
            .take(n),
        deleteAll("problemReports"),
      ),
    () =>
      drain(
        (n) =>
          ctx.db
            .query("sceneItems")
            .withIndex("by_createdBy", (q) => q.eq("createdBy", userId))
            .take(n),
        // The community keeps the mic; it just no longer names its creator.
        async (rows) => {
          for (const row of rows) await ctx.db.patch("sceneItems", row._id, { createdBy: undefined });
        },
      ),
  ];
  for (const step of steps) {
    if (!(await step())) return false;
  }
  return true;
}
