/**
 * Data export (profile page): everything the comedian owns, as plain JSON.
 * Account deletion is in ./account.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { notificationsExport } from "./notifications";
import { getProfile, memberSinceOf } from "./profiles";

/** Most rows of one kind an export reads (far beyond any real comedian). */
const EXPORT_LIMIT = 10_000;

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
  const [sets, schedule, favorites, checkIns, badges, claims, reports, micsAdded, bits, setLists, ratings] =
    await Promise.all([
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
      ctx.db
        .query("bits")
        .withIndex("by_user_and_archived_and_title", (q) => q.eq("userId", userId))
        .take(EXPORT_LIMIT),
      ctx.db
        .query("setLists")
        .withIndex("by_user", (q) => q.eq("userId", userId))
        .take(EXPORT_LIMIT),
      ctx.db
        .query("bitRatings")
        .withIndex("by_user_and_time", (q) => q.eq("userId", userId))
        .order("desc")
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

  const [notifications, seasonLinks] = await Promise.all([
    notificationsExport(ctx, userId),
    ctx.db
      .query("seasonShares")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .take(EXPORT_LIMIT),
  ]);
  const photoUrl = profile?.photoStorageId ? await ctx.storage.getUrl(profile.photoStorageId) : null;
  return {
    format: "stagetime-export",
    version: 1,
    account: {
      id: userId as string,
      email: user?.email ?? null,
      name: user?.name ?? null,
      memberSince: user ? memberSinceOf(user, profile) : null,
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
    bits: bits.map((b) => ({
      id: b._id as string,
      createdAt: b._creationTime,
      title: b.title,
      notes: b.notes ?? null,
      tags: b.tags,
      seconds: b.seconds ?? null,
      status: b.status,
      archived: b.archived,
      performed: b.performed,
      landed: b.landed,
      okay: b.okay,
      flat: b.flat,
      lastPerformedAt: b.lastPerformedAt ?? null,
    })),
    setLists: setLists.map((l) => ({
      id: l._id as string,
      createdAt: l._creationTime,
      title: l.title,
      bitIds: l.bitIds as string[],
      night: l.nightMicId && l.nightDate ? { sceneItemId: l.nightMicId as string, date: l.nightDate } : null,
    })),
    bitRatings: ratings.map((r) => ({
      bitId: r.bitId as string,
      setId: r.performanceId as string,
      performedAt: r.performedAt,
      rating: r.rating,
      note: r.note ?? null,
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
    notifications,
    // The public season links (the token is the link); the season's numbers follow from `sets`.
    seasonLinks: seasonLinks.map((l) => ({
      createdAt: l._creationTime,
      token: l.token,
      from: l.from,
      to: l.to,
      fields: l.fields,
    })),
  };
}
