/** Every route of the app. Links and redirects use these, never string literals,
 * so a path changes in one place. */

/** Onboarding steps in order; the position is the step number (1-based) shown in
 * the 10-step progress indicator. */
export const onboardingSteps = [
  "welcome",
  "venue",
  "event",
  "details",
  "venue-details",
  "success",
  "checkin-info",
  "add-another",
  "goal-setting",
  "complete",
] as const;

export type OnboardingStep = (typeof onboardingSteps)[number];

export const logSetSteps = ["event", "details", "venue", "venue-details", "success"] as const;
export type LogSetStep = (typeof logSetSteps)[number];

export const addEventSteps = ["event", "details", "success"] as const;
export type AddEventStep = (typeof addEventSteps)[number];

/**
 * A path without its trailing slashes ("/scene/" → "/scene", "" → "/"), as
 * the router matches it. Plain code with no references, because index.html's
 * inline scripts carry its source (scripts/routePreloadPlugin.ts, firstPage.ts).
 */
export const normalPath = (pathname: string) => pathname.replace(/\/+$/, "") || "/";

/** Set on window by index.html's script when it preloaded the page's code (scripts/routePreloadPlugin.ts). */
export const ROUTE_PRELOADED_GLOBAL = "__stagetimeRoutePreloaded";

export const paths = {
  home: "/",
  auth: "/auth",
  authCallback: "/auth/callback",
  discover: "/discover",
  dashboard: "/dashboard",
  profile: "/profile",
  /** The inbox: every notification, newest first. */
  notifications: "/notifications",
  schedule: "/schedule",
  /** The schedule opened at the week containing `isoDate` (YYYY-MM-DD). */
  scheduleWeek: (isoDate: string) => `/schedule?week=${encodeURIComponent(isoDate)}`,
  scene: "/scene",
  /** Route pattern of the event page, for the router. */
  eventPattern: "/event/:id",
  event: (id: string) => `/event/${encodeURIComponent(id)}`,
  /** Route pattern of a mic's room screen (the live list on a venue TV). */
  eventListScreenPattern: "/event/:id/list/screen",
  eventListScreen: (id: string) => `/event/${encodeURIComponent(id)}/list/screen`,
  logSet: "/log-set",
  logSetStep: (step: LogSetStep) => `/log-set/${step}`,
  addEvent: "/add-event",
  addEventStep: (step: AddEventStep) => `/add-event/${step}`,
  performanceHistory: "/performance-history",
  badges: "/badges",
  /** The bit library, and one bit with its numbers. */
  bits: "/bits",
  bitPattern: "/bits/:id",
  bit: (id: string) => `/bits/${encodeURIComponent(id)}`,
  /** Set lists, one set list's builder, and its large-type stage view. */
  setLists: "/set-lists",
  setListPattern: "/set-lists/:id",
  setList: (id: string) => `/set-lists/${encodeURIComponent(id)}`,
  setListStagePattern: "/set-lists/:id/stage",
  setListStage: (id: string) => `/set-lists/${encodeURIComponent(id)}/stage`,
  /** How each bit of a logged set went. */
  setBitsPattern: "/sets/:id/bits",
  setBits: (id: string) => `/sets/${encodeURIComponent(id)}/bits`,
  /** A season in review (`?from=YYYY-MM&to=YYYY-MM`, this year without), and a public link to one. */
  season: "/season",
  seasonPeriod: (from: string, to: string) => `/season?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  seasonSharedPattern: "/season/shared/:token",
  seasonShared: (token: string) => `/season/shared/${encodeURIComponent(token)}`,
  onboardingRoot: "/onboarding",
  onboarding: (step: OnboardingStep) => `/onboarding/${step}`,
  admin: "/admin",
} as const;

/** 1-based position of an onboarding step, for "Step n of 10". */
export function onboardingStepNumber(step: OnboardingStep): number {
  return onboardingSteps.indexOf(step) + 1;
}
