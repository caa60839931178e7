/**
 * Fixtures for browser tests, the local-backend tests and the bench, run through the
 * backend CLI (`npm run backend -- run fixtures:insertSceneItem '{...}'`) or convex-test.
 * Dev tooling: this folder is loaded by the local backend (not with --prod) and the
 * tests on top of `convex/`; `npx convex deploy` of `convex/` never contains it.
 */
import { v } from "convex/values";
import { internalAction, internalQuery, type QueryCtx } from "../convex/_generated/server";
import { internalMutation } from "../convex/functions";
import { addDaysToDate, localDateString, zonedEpoch } from "../convex/lib/time";
import { goalWeek } from "../convex/lib/weeks";
import { notify } from "../convex/model/notifications";
import { normalizeEmail } from "../convex/model/profiles";
import * as Scene from "../convex/model/scene";
import { limitSignInAttempt, limitSignUp } from "../convex/rateLimits";
import { notificationKind, sceneItemFields, sceneItemStatus } from "../convex/schema";

/** The (first) account with this email; throws without one. */
async function accountWithEmail(ctx: QueryCtx, email: string) {
  const user = await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", normalizeEmail(email)))
    .first();
  if (user === null) throw new Error(`No account with the email ${email}.`);
  return user;
}

/** A mic or show, written as the app writes one (derived fields follow through the triggers). */
export const insertSceneItem = internalMutation({
  args: {
    ...sceneItemFields,
    createdBy: v.optional(v.id("users")),
    status: v.optional(sceneItemStatus),
  },
  returns: v.id("sceneItems"),
  handler: async (ctx, { createdBy, status, ...fields }) =>
    await Scene.insertSceneItem(ctx, fields, { createdBy, status }),
});

/** An admin deletes the mic, as the event dialog's Delete does (sets lose their link). */
export const removeSceneItem = internalMutation({
  args: { id: v.id("sceneItems"), adminEmail: v.string() },
  returns: v.null(),
  handler: async (ctx, { id, adminEmail }) => {
    const admin = await accountWithEmail(ctx, adminEmail);
    await Scene.removeSceneItem(ctx, admin._id, id);
    return null;
  },
});

/** The account with this email becomes the mic's approved claimant. */
export const approveClaim = internalMutation({
  // `status: "denied"` records an already-denied claim instead (a mic has one approved host at a time).
  args: {
    micId: v.id("sceneItems"),
    email: v.string(),
    status: v.optional(v.union(v.literal("approved"), v.literal("denied"))),
  },
  returns: v.null(),
  handler: async (ctx, { micId, email, status }) => {
    const user = await accountWithEmail(ctx, email);
    await ctx.db.insert("micClaims", {
      micId,
      claimantId: user._id,
      status: status ?? "approved",
      reviewedAt: Date.now(),
    });
    return null;
  },
});

/** The push endpoints the server keeps for the account with this email (its devices). */
export const devicesOf = internalQuery({
  args: { email: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, { email }) => {
    const user = await accountWithEmail(ctx, email);
    const rows = await ctx.db
      .query("pushSubscriptions")
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .take(20);
    return rows.map((r) => r.endpoint);
  },
});

/** The sets of the account with this email, newest first: what a browser test counts on the server. */
export const setsOf = internalQuery({
  args: { email: v.string() },
  returns: v.array(
    v.object({
      minutes: v.number(),
      venueName: v.union(v.string(), v.null()),
      sceneItemId: v.union(v.id("sceneItems"), v.null()),
    }),
  ),
  handler: async (ctx, { email }) => {
    const user = await accountWithEmail(ctx, email);
    const sets = await ctx.db
      .query("performances")
      .withIndex("by_user_and_performedAt", (q) => q.eq("userId", user._id))
      .order("desc")
      .take(100);
    return sets.map((set) => ({
      minutes: set.minutes,
      venueName: set.venueName ?? null,
      sceneItemId: set.sceneItemId ?? null,
    }));
  },
});

/**
 * Gives the account with `email` `count` one-minute sets at `venueName`, one a day
 * going back from yesterday (totals, streaks and site minutes follow,
 * model/statsTriggers). Returns how many were added.
 */
export const insertSets = internalMutation({
  args: { email: v.string(), count: v.number(), venueName: v.string() },
  returns: v.number(),
  handler: async (ctx, { email, count, venueName }) => {
    const user = await accountWithEmail(ctx, email);
    const zone = "America/New_York";
    const now = Date.now();
    const n = Math.max(0, Math.min(Math.floor(count), 500));
    for (let i = 1; i <= n; i++) {
      const performedAt = now - i * 24 * 60 * 60 * 1000;
      const performanceDate = localDateString(performedAt, zone);
      await ctx.db.insert("performances", {
        userId: user._id,
        minutes: 1,
        performedAt,
        performanceDate,
        venueName,
        tags: [],
      });
    }
    return n;
  },
});

/** Files one open "other" report on the mic per note, oldest first, as the account with this email (no per-comedian checks). */
export const insertReports = internalMutation({
  args: { micId: v.id("sceneItems"), email: v.string(), notes: v.array(v.string()) },
  returns: v.number(),
  handler: async (ctx, { micId, email, notes }) => {
    const user = await accountWithEmail(ctx, email);
    for (const note of notes.slice(0, 100)) {
      await ctx.db.insert("problemReports", { micId, reporterId: user._id, kind: "other", note, status: "open" });
    }
    return Math.min(notes.length, 100);
  },
});

/** How many of the mic's reports are still open. */
export const openReportsOf = internalQuery({
  args: { micId: v.id("sceneItems") },
  returns: v.number(),
  handler: async (ctx, { micId }) => {
    const reports = await ctx.db
      .query("problemReports")
      .withIndex("by_mic", (q) => q.eq("micId", micId))
      .take(1000);
    return reports.filter((report) => report.status === "open").length;
  },
});

/**
 * Files one pending claim on the mic per message, oldest first, as the account with
 * this email, numbered after the highest claim number as claims:submit numbers them
 * (no one-pending-claim-per-comedian check). Returns how many were filed (100 at most).
 */
export const insertClaims = internalMutation({
  args: { micId: v.id("sceneItems"), email: v.string(), messages: v.array(v.string()) },
  returns: v.number(),
  handler: async (ctx, { micId, email, messages }) => {
    const user = await accountWithEmail(ctx, email);
    const last = await ctx.db
      .query("micClaims")
      .withIndex("by_number", (q) => q.gt("number", 0))
      .order("desc")
      .first();
    const batch = messages.slice(0, 100);
    for (const [i, message] of batch.entries()) {
      const number = (last?.number ?? 0) + 1 + i;
      await ctx.db.insert("micClaims", { micId, claimantId: user._id, message, status: "pending", number });
    }
    return batch.length;
  },
});

/** Removes every claim on a mic (a browser test's own claims, so later tests see the queue as it was). */
export const deleteClaims = internalMutation({
  args: { micId: v.id("sceneItems") },
  returns: v.number(),
  handler: async (ctx, { micId }) => {
    const claims = await ctx.db
      .query("micClaims")
      .withIndex("by_mic_and_claimant", (q) => q.eq("micId", micId))
      .take(500);
    for (const claim of claims) await ctx.db.delete("micClaims", claim._id);
    return claims.length;
  },
});

/**
 * `count` comedians (user, profile and a live session each, as sign-up writes
 * them): the bench signs their tokens itself instead of hashing a password apiece.
 */
export const insertComedians = internalMutation({
  args: { prefix: v.string(), count: v.number() },
  returns: v.array(v.object({ userId: v.id("users"), sessionId: v.id("authSessions") })),
  handler: async (ctx, { prefix, count }) => {
    const out = [];
    for (let i = 0; i < Math.min(count, 1000); i++) {
      const name = `${prefix} ${i + 1}`;
      const email = normalizeEmail(`${prefix.toLowerCase().replace(/\W+/g, "-")}-${i + 1}@bench.test`);
      const userId = await ctx.db.insert("users", { email, name });
      const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 24 * 3600_000 });
      await ctx.db.insert("profiles", {
        userId,
        displayName: name,
        weeklyGoalMinutes: 15,
        needsOnboarding: false,
        onboardingCompleted: true,
        isAdmin: false,
      });
      out.push({ userId, sessionId });
    }
    return out;
  },
});

/**
 * Gives the account with `email` one set per entry, at 00:30 New York time on the
 * Sunday `weeksAgo` goal weeks before this one (this week's set: a minute ago), so a
 * browser test can lay out a week streak. Everything derived follows through the triggers.
 */
export const insertWeekSets = internalMutation({
  args: { email: v.string(), sets: v.array(v.object({ weeksAgo: v.number(), minutes: v.number() })) },
  returns: v.null(),
  handler: async (ctx, { email, sets }) => {
    const user = await accountWithEmail(ctx, email);
    const zone = "America/New_York";
    const now = Date.now();
    const thisWeek = goalWeek(now, zone).startDate;
    for (const { weeksAgo, minutes } of sets.slice(0, 60)) {
      const performedAt =
        weeksAgo <= 0 ? now - 60_000 : zonedEpoch(addDaysToDate(thisWeek, -7 * Math.floor(weeksAgo)), "00:30", zone);
      await ctx.db.insert("performances", {
        userId: user._id,
        minutes,
        performedAt,
        performanceDate: localDateString(performedAt, zone),
        venueName: "Week Streak Room",
        tags: [],
      });
    }
    return null;
  },
});

/**
 * Gives the account with `email` a set at 21:00 New York time on each local
 * `date`, at `micId` or under `venueName` (the season's month rows follow
 * through the triggers). At most 100 a call.
 */
export const insertSeasonSets = internalMutation({
  args: {
    email: v.string(),
    sets: v.array(
      v.object({
        date: v.string(),
        minutes: v.number(),
        micId: v.optional(v.id("sceneItems")),
        venueName: v.optional(v.string()),
      }),
    ),
  },
  returns: v.null(),
  handler: async (ctx, { email, sets }) => {
    const user = await accountWithEmail(ctx, email);
    for (const { date, minutes, micId, venueName } of sets.slice(0, 100)) {
      await ctx.db.insert("performances", {
        userId: user._id,
        minutes,
        performedAt: zonedEpoch(date, "21:00", "America/New_York"),
        performanceDate: date,
        ...(micId !== undefined ? { sceneItemId: micId } : {}),
        ...(venueName !== undefined ? { venueName } : {}),
        tags: [],
      });
    }
    return null;
  },
});

/**
 * The site-wide rate limits a crowd of strangers shares, taken as the password
 * provider takes them (before it hashes): a sign-up's `signUp` (and its
 * address's `signUpEmail`), or a sign-in on a real account's `signInFailed`
 * (and the address's own buckets). The burst tests call it many times at once.
 */
export const takeSiteWideLimit = internalAction({
  args: { limit: v.union(v.literal("signUp"), v.literal("signInFailed")), email: v.string() },
  returns: v.null(),
  handler: async (ctx, { limit, email }) => {
    if (limit === "signUp") await limitSignUp(ctx, email);
    else await limitSignInAttempt(ctx, email, true);
    return null;
  },
});

/**
 * Gives a mic `nights` closed first-come lists on the Wednesdays before 2026-11-25,
 * each with `signUps` comedians (fresh accounts) for `spots` spots and its sets going
 * up from `firstSetLate` minutes after the listed start, 10 minutes apart, so a
 * browser test can read the mic's numbers (model/micNumbers follows the lists).
 */
export const insertMicNights = internalMutation({
  args: {
    micId: v.id("sceneItems"),
    nights: v.number(),
    spots: v.number(),
    signUps: v.number(),
    firstSetLate: v.number(),
    /** Weeks back to start from, so batches of 30 can write a long history (at most 1,000). */
    skipWeeks: v.optional(v.number()),
  },
  returns: v.null(),
  handler: async (ctx, { micId, nights, spots, signUps, firstSetLate, skipWeeks = 0 }) => {
    const mic = await ctx.db.get("sceneItems", micId);
    if (mic === null) throw new Error("No such mic.");
    if (!Number.isInteger(skipWeeks) || skipWeeks < 0 || skipWeeks > 1000) throw new Error("skipWeeks: 0 to 1,000.");
    const start = mic.startTimeLocal ?? "20:00";
    for (let i = skipWeeks + 1; i <= skipWeeks + Math.min(nights, 30); i++) {
      const date = addDaysToDate("2026-11-25", -7 * i);
      const startMs = zonedEpoch(date, start, mic.timeZone);
      const userId = await ctx.db.insert("users", { name: `Night ${i} host` });
      const listId = await ctx.db.insert("nightLists", {
        micId,
        date,
        status: "open",
        openedBy: userId,
        spots,
        waitlistSpots: 5,
        setMinutes: 5,
        lightMinutes: 1,
        mode: "first_come",
        bucket: false,
        // Its sign-ups are inserted now, so the list "opened" 25 minutes ago: fill times read like a real night's.
        signupOpensAt: Date.now() - 25 * 60_000,
        version: 1,
      });
      for (let k = 0; k < Math.min(signUps, 50); k++) {
        const comic = await ctx.db.insert("users", { name: `Comic ${i}.${k}` });
        const up = k < spots;
        const startedAt = startMs + (firstSetLate + 10 * k) * 60_000;
        await ctx.db.insert("listSpots", {
          listId,
          micId,
          userId: comic,
          name: `Comic ${i}.${k}`,
          section: up ? "list" : "waitlist",
          rank: k,
          state: up ? "done" : "waiting",
          priority: false,
          bumped: false,
          ...(up ? { startedAt, endedAt: startedAt + 5 * 60_000 } : {}),
        });
      }
      await ctx.db.patch("nightLists", listId, { status: "closed", closedReason: "ended", version: 2 });
    }
    return null;
  },
});

/**
 * Tells the account with this email `count` things through the app's own `notify`
 * (its choices, mutes and push rules apply), oldest first: "<prefix> 1" .. "<prefix> n",
 * each opening `url`, of `kind` (default set_feedback), about `micId` if given. Returns how many reached the inbox (100 at most).
 */
export const notifyAccount = internalMutation({
  args: {
    email: v.string(),
    prefix: v.string(),
    count: v.number(),
    url: v.string(),
    kind: v.optional(notificationKind),
    micId: v.optional(v.id("sceneItems")),
  },
  returns: v.number(),
  handler: async (ctx, { email, prefix, count, url, kind, micId }) => {
    const user = await accountWithEmail(ctx, email);
    let told = 0;
    for (let i = 1; i <= Math.min(count, 100); i++) {
      const id = await notify(ctx, {
        userId: user._id,
        micId,
        nowMs: Date.now(),
        notice: {
          kind: kind ?? "set_feedback",
          eventKey: `fixture:${prefix}:${i}`,
          title: `${prefix} ${i}`,
          body: "",
          url,
        },
      });
      if (id !== null) told++;
    }
    return told;
  },
});
