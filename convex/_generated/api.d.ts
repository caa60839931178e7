/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as account from "../account.js";
import type * as admin from "../admin.js";
import type * as auth from "../auth.js";
import type * as authRateLimits from "../authRateLimits.js";
import type * as authVerifiers from "../authVerifiers.js";
import type * as badges from "../badges.js";
import type * as bits from "../bits.js";
import type * as checkIns from "../checkIns.js";
import type * as claims from "../claims.js";
import type * as community from "../community.js";
import type * as crons from "../crons.js";
import type * as dashboard from "../dashboard.js";
import type * as errors from "../errors.js";
import type * as events from "../events.js";
import type * as favorites from "../favorites.js";
import type * as functions from "../functions.js";
import type * as geocode from "../geocode.js";
import type * as goals from "../goals.js";
import type * as history from "../history.js";
import type * as http from "../http.js";
import type * as invariants from "../invariants.js";
import type * as lib_badges from "../lib/badges.js";
import type * as lib_bitRules from "../lib/bitRules.js";
import type * as lib_checkInWindow from "../lib/checkInWindow.js";
import type * as lib_claimRules from "../lib/claimRules.js";
import type * as lib_defaultTimeZone from "../lib/defaultTimeZone.js";
import type * as lib_geo from "../lib/geo.js";
import type * as lib_goalRules from "../lib/goalRules.js";
import type * as lib_liveListViewer from "../lib/liveListViewer.js";
import type * as lib_micNumbersLine from "../lib/micNumbersLine.js";
import type * as lib_micRules from "../lib/micRules.js";
import type * as lib_nightListRules from "../lib/nightListRules.js";
import type * as lib_notificationRules from "../lib/notificationRules.js";
import type * as lib_pageCursor from "../lib/pageCursor.js";
import type * as lib_photo from "../lib/photo.js";
import type * as lib_profileRules from "../lib/profileRules.js";
import type * as lib_recurrence from "../lib/recurrence.js";
import type * as lib_recurrenceText from "../lib/recurrenceText.js";
import type * as lib_requestRules from "../lib/requestRules.js";
import type * as lib_sceneSearch from "../lib/sceneSearch.js";
import type * as lib_schedule from "../lib/schedule.js";
import type * as lib_season from "../lib/season.js";
import type * as lib_setRules from "../lib/setRules.js";
import type * as lib_similarity from "../lib/similarity.js";
import type * as lib_streaks from "../lib/streaks.js";
import type * as lib_textRules from "../lib/textRules.js";
import type * as lib_time from "../lib/time.js";
import type * as lib_tonight from "../lib/tonight.js";
import type * as lib_weekStreaks from "../lib/weekStreaks.js";
import type * as lib_weeks from "../lib/weeks.js";
import type * as micNumbers from "../micNumbers.js";
import type * as migrations from "../migrations.js";
import type * as model_access from "../model/access.js";
import type * as model_account from "../model/account.js";
import type * as model_accountBudget from "../model/accountBudget.js";
import type * as model_accountExport from "../model/accountExport.js";
import type * as model_admin from "../model/admin.js";
import type * as model_badges from "../model/badges.js";
import type * as model_bitRatings from "../model/bitRatings.js";
import type * as model_bitTriggers from "../model/bitTriggers.js";
import type * as model_bits from "../model/bits.js";
import type * as model_checkIns from "../model/checkIns.js";
import type * as model_claims from "../model/claims.js";
import type * as model_dashboard from "../model/dashboard.js";
import type * as model_events from "../model/events.js";
import type * as model_favorites from "../model/favorites.js";
import type * as model_invariants_badges from "../model/invariants/badges.js";
import type * as model_invariants_bits from "../model/invariants/bits.js";
import type * as model_invariants_check from "../model/invariants/check.js";
import type * as model_invariants_community from "../model/invariants/community.js";
import type * as model_invariants_followers from "../model/invariants/followers.js";
import type * as model_invariants_links from "../model/invariants/links.js";
import type * as model_invariants_micNumbers from "../model/invariants/micNumbers.js";
import type * as model_invariants_mics from "../model/invariants/mics.js";
import type * as model_invariants_page from "../model/invariants/page.js";
import type * as model_invariants_stats from "../model/invariants/stats.js";
import type * as model_micFollowers from "../model/micFollowers.js";
import type * as model_micNumberTriggers from "../model/micNumberTriggers.js";
import type * as model_micNumbers from "../model/micNumbers.js";
import type * as model_micTriggers from "../model/micTriggers.js";
import type * as model_nightListHost from "../model/nightListHost.js";
import type * as model_nightListOpen from "../model/nightListOpen.js";
import type * as model_nightListPlacement from "../model/nightListPlacement.js";
import type * as model_nightListReopen from "../model/nightListReopen.js";
import type * as model_nightListViews from "../model/nightListViews.js";
import type * as model_nightLists from "../model/nightLists.js";
import type * as model_notificationFanOut from "../model/notificationFanOut.js";
import type * as model_notificationTriggers from "../model/notificationTriggers.js";
import type * as model_notifications from "../model/notifications.js";
import type * as model_performances from "../model/performances.js";
import type * as model_planFilters from "../model/planFilters.js";
import type * as model_profiles from "../model/profiles.js";
import type * as model_reports from "../model/reports.js";
import type * as model_scene from "../model/scene.js";
import type * as model_sceneArea from "../model/sceneArea.js";
import type * as model_schedule from "../model/schedule.js";
import type * as model_scheduleDue from "../model/scheduleDue.js";
import type * as model_scheduleWeek from "../model/scheduleWeek.js";
import type * as model_season from "../model/season.js";
import type * as model_seasonTriggers from "../model/seasonTriggers.js";
import type * as model_setClientKeys from "../model/setClientKeys.js";
import type * as model_setLists from "../model/setLists.js";
import type * as model_stats from "../model/stats.js";
import type * as model_statsTriggers from "../model/statsTriggers.js";
import type * as model_tonight from "../model/tonight.js";
import type * as model_tonightSources from "../model/tonightSources.js";
import type * as model_userStats from "../model/userStats.js";
import type * as model_venues from "../model/venues.js";
import type * as model_weekStreakTriggers from "../model/weekStreakTriggers.js";
import type * as model_weekStreaks from "../model/weekStreaks.js";
import type * as nightLists from "../nightLists.js";
import type * as notifications from "../notifications.js";
import type * as onboarding from "../onboarding.js";
import type * as passwordHashes from "../passwordHashes.js";
import type * as passwordReset from "../passwordReset.js";
import type * as performances from "../performances.js";
import type * as profiles from "../profiles.js";
import type * as push from "../push.js";
import type * as rateLimits from "../rateLimits.js";
import type * as ratings from "../ratings.js";
import type * as reports from "../reports.js";
import type * as scene from "../scene.js";
import type * as sceneArea from "../sceneArea.js";
import type * as schedule from "../schedule.js";
import type * as season from "../season.js";
import type * as setLists from "../setLists.js";
import type * as stats from "../stats.js";
import type * as storage from "../storage.js";
import type * as tonight from "../tonight.js";
import type * as triggers from "../triggers.js";
import type * as venues from "../venues.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  account: typeof account;
  admin: typeof admin;
  auth: typeof auth;
  authRateLimits: typeof authRateLimits;
  authVerifiers: typeof authVerifiers;
  badges: typeof badges;
  bits: typeof bits;
  checkIns: typeof checkIns;
  claims: typeof claims;
  community: typeof community;
  crons: typeof crons;
  dashboard: typeof dashboard;
  errors: typeof errors;
  events: typeof events;
  favorites: typeof favorites;
  functions: typeof functions;
  geocode: typeof geocode;
  goals: typeof goals;
  history: typeof history;
  http: typeof http;
  invariants: typeof invariants;
  "lib/badges": typeof lib_badges;
  "lib/bitRules": typeof lib_bitRules;
  "lib/checkInWindow": typeof lib_checkInWindow;
  "lib/claimRules": typeof lib_claimRules;
  "lib/defaultTimeZone": typeof lib_defaultTimeZone;
  "lib/geo": typeof lib_geo;
  "lib/goalRules": typeof lib_goalRules;
  "lib/liveListViewer": typeof lib_liveListViewer;
  "lib/micNumbersLine": typeof lib_micNumbersLine;
  "lib/micRules": typeof lib_micRules;
  "lib/nightListRules": typeof lib_nightListRules;
  "lib/notificationRules": typeof lib_notificationRules;
  "lib/pageCursor": typeof lib_pageCursor;
  "lib/photo": typeof lib_photo;
  "lib/profileRules": typeof lib_profileRules;
  "lib/recurrence": typeof lib_recurrence;
  "lib/recurrenceText": typeof lib_recurrenceText;
  "lib/requestRules": typeof lib_requestRules;
  "lib/sceneSearch": typeof lib_sceneSearch;
  "lib/schedule": typeof lib_schedule;
  "lib/season": typeof lib_season;
  "lib/setRules": typeof lib_setRules;
  "lib/similarity": typeof lib_similarity;
  "lib/streaks": typeof lib_streaks;
  "lib/textRules": typeof lib_textRules;
  "lib/time": typeof lib_time;
  "lib/tonight": typeof lib_tonight;
  "lib/weekStreaks": typeof lib_weekStreaks;
  "lib/weeks": typeof lib_weeks;
  micNumbers: typeof micNumbers;
  migrations: typeof migrations;
  "model/access": typeof model_access;
  "model/account": typeof model_account;
  "model/accountBudget": typeof model_accountBudget;
  "model/accountExport": typeof model_accountExport;
  "model/admin": typeof model_admin;
  "model/badges": typeof model_badges;
  "model/bitRatings": typeof model_bitRatings;
  "model/bitTriggers": typeof model_bitTriggers;
  "model/bits": typeof model_bits;
  "model/checkIns": typeof model_checkIns;
  "model/claims": typeof model_claims;
  "model/dashboard": typeof model_dashboard;
  "model/events": typeof model_events;
  "model/favorites": typeof model_favorites;
  "model/invariants/badges": typeof model_invariants_badges;
  "model/invariants/bits": typeof model_invariants_bits;
  "model/invariants/check": typeof model_invariants_check;
  "model/invariants/community": typeof model_invariants_community;
  "model/invariants/followers": typeof model_invariants_followers;
  "model/invariants/links": typeof model_invariants_links;
  "model/invariants/micNumbers": typeof model_invariants_micNumbers;
  "model/invariants/mics": typeof model_invariants_mics;
  "model/invariants/page": typeof model_invariants_page;
  "model/invariants/stats": typeof model_invariants_stats;
  "model/micFollowers": typeof model_micFollowers;
  "model/micNumberTriggers": typeof model_micNumberTriggers;
  "model/micNumbers": typeof model_micNumbers;
  "model/micTriggers": typeof model_micTriggers;
  "model/nightListHost": typeof model_nightListHost;
  "model/nightListOpen": typeof model_nightListOpen;
  "model/nightListPlacement": typeof model_nightListPlacement;
  "model/nightListReopen": typeof model_nightListReopen;
  "model/nightListViews": typeof model_nightListViews;
  "model/nightLists": typeof model_nightLists;
  "model/notificationFanOut": typeof model_notificationFanOut;
  "model/notificationTriggers": typeof model_notificationTriggers;
  "model/notifications": typeof model_notifications;
  "model/performances": typeof model_performances;
  "model/planFilters": typeof model_planFilters;
  "model/profiles": typeof model_profiles;
  "model/reports": typeof model_reports;
  "model/scene": typeof model_scene;
  "model/sceneArea": typeof model_sceneArea;
  "model/schedule": typeof model_schedule;
  "model/scheduleDue": typeof model_scheduleDue;
  "model/scheduleWeek": typeof model_scheduleWeek;
  "model/season": typeof model_season;
  "model/seasonTriggers": typeof model_seasonTriggers;
  "model/setClientKeys": typeof model_setClientKeys;
  "model/setLists": typeof model_setLists;
  "model/stats": typeof model_stats;
  "model/statsTriggers": typeof model_statsTriggers;
  "model/tonight": typeof model_tonight;
  "model/tonightSources": typeof model_tonightSources;
  "model/userStats": typeof model_userStats;
  "model/venues": typeof model_venues;
  "model/weekStreakTriggers": typeof model_weekStreakTriggers;
  "model/weekStreaks": typeof model_weekStreaks;
  nightLists: typeof nightLists;
  notifications: typeof notifications;
  onboarding: typeof onboarding;
  passwordHashes: typeof passwordHashes;
  passwordReset: typeof passwordReset;
  performances: typeof performances;
  profiles: typeof profiles;
  push: typeof push;
  rateLimits: typeof rateLimits;
  ratings: typeof ratings;
  reports: typeof reports;
  scene: typeof scene;
  sceneArea: typeof sceneArea;
  schedule: typeof schedule;
  season: typeof season;
  setLists: typeof setLists;
  stats: typeof stats;
  storage: typeof storage;
  tonight: typeof tonight;
  triggers: typeof triggers;
  venues: typeof venues;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;

export declare const components: {
  rateLimiter: import("@convex-dev/rate-limiter/_generated/component.js").ComponentApi<"rateLimiter">;
  shardedCounter: import("@convex-dev/sharded-counter/_generated/component.js").ComponentApi<"shardedCounter">;
};
