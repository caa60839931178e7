/** The authorization matrix's cells for the account, the profile, goals, sets, stats, badges, history and the dashboard. */
import {
  ADMIN_READS,
  DAY,
  type Entry,
  newMicDetails,
  NOW,
  OWNER_CHANGES,
  OWNER_EMAIL,
  OWNER_SET_KEY,
  page,
  PUBLIC_READ,
  SIGNED_IN_CHANGES,
  SIGNED_IN_OWN,
  SIGNED_IN_READS,
} from "./test.authzWorld";

export const accountCells: Record<string, Entry> = {
  // Account
  "account:deleteAccount": {
    changesBystander: {
      why: "a deleted account's spots leave tonight's lists at once, and the spots after them move up",
      ranksOnLeftLists: true,
    },
    args: () => ({ confirm: "DELETE" }),
    ...SIGNED_IN_CHANGES,
  },
  "account:exportData": { args: () => ({}), ...SIGNED_IN_READS },
  "auth:isAuthenticated": { args: () => ({}), ...SIGNED_IN_OWN },
  "auth:signIn": {
    args: () => ({
      provider: "password",
      params: { email: OWNER_EMAIL, password: "not-her-password", flow: "signIn" },
    }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "nothing",
  },
  "auth:signOut": { args: () => ({}), anon: "own", other: "own", admin: "own", owner: "own" },
  "profiles:me": { args: () => ({}), ...SIGNED_IN_READS },
  "profiles:isAdmin": { args: () => ({}), ...ADMIN_READS },
  "profiles:ensure": { args: () => ({}), ...SIGNED_IN_OWN },
  "profiles:skipOnboarding": { args: () => ({}), ...SIGNED_IN_CHANGES },
  "profiles:completeOnboarding": { args: () => ({ weeklyGoalMinutes: 20 }), ...SIGNED_IN_CHANGES },
  "profiles:update": {
    args: () => ({ displayName: "Renamed", weeklyGoalMinutes: 30, defaultCity: "Austin" }),
    ...SIGNED_IN_CHANGES,
  },
  "profiles:setStageName": { args: () => ({ stageName: "Stage Renamed" }), ...SIGNED_IN_CHANGES },
  "profiles:generatePhotoUploadUrl": { args: () => ({}), ...SIGNED_IN_OWN },
  "profiles:setPhoto": { args: (w) => ({ storageId: w.photo }), ...SIGNED_IN_CHANGES },
  "goals:update": { args: () => ({ weeklyGoalMinutes: 30 }), ...SIGNED_IN_CHANGES },

  // Sets, stats, badges, history, dashboard
  "performances:log": {
    args: (w) => ({ minutes: 5, performedAt: NOW - 60_000, sceneItemId: w.ownerMic, tags: [] }),
    ...SIGNED_IN_CHANGES,
  },
  "performances:loggedWith": { args: () => ({ clientKey: OWNER_SET_KEY }), ...SIGNED_IN_READS },
  "performances:logWithNewMic": {
    args: () => ({
      set: { minutes: 6, performedAt: NOW - 60_000, tags: [] },
      venue: { venueName: "The Back Room", address: "9 Side St, Brooklyn, NY" },
      details: newMicDetails,
      alsoAddToScene: true,
    }),
    ...SIGNED_IN_CHANGES,
  },
  "onboarding:logFirstSet": {
    args: (w) => ({ sceneItemId: w.ownerMic, minutes: 5, timeZone: "America/New_York" }),
    ...SIGNED_IN_CHANGES,
  },
  "performances:update": {
    args: (w) => ({ id: w.ownerSet, minutes: 12, performedAt: NOW - DAY, notes: "changed" }),
    ...OWNER_CHANGES,
  },
  "performances:remove": { args: (w) => ({ id: w.ownerSet }), ...OWNER_CHANGES },
  "stats:mine": {
    ownerAnswerShows: false,
    args: () => ({ today: "2026-11-25" }),
    ...SIGNED_IN_READS,
  },
  "badges:mine": {
    ownerAnswerShows: false,
    args: () => ({}),
    ...SIGNED_IN_READS,
  },
  "badges:progress": {
    ownerAnswerShows: false,
    args: () => ({ monthStartMs: Date.parse("2026-11-01T00:00:00-04:00") }),
    ...SIGNED_IN_READS,
  },
  "history:list": { args: () => page, ...SIGNED_IN_READS },
  "history:stats": {
    ownerAnswerShows: false,
    args: () => ({}),
    ...SIGNED_IN_READS,
  },
  "dashboard:summary": {
    args: () => ({ goalWeekStartMs: NOW - 3 * DAY, goalWeekEndMs: NOW + 4 * DAY, today: "2026-11-25" }),
    ...SIGNED_IN_READS,
  },
  "community:stats": { args: () => ({}), ...PUBLIC_READ },
};
