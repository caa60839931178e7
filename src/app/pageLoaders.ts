/**
 * The code of every page but those index.html preloads (the landing page and
 * the scene, imported by router.tsx itself). Each `import()` carries the list of
 * chunks it preloads; kept here, those lists load with the first visit to one of
 * these pages, or once the first page has painted, not before the first card.
 */
export const pageLoaders = {
  EventListScreen: () => import("@/routes/EventListScreen"),
  SetListStage: () => import("@/routes/SetListStage"),
  Auth: () => import("@/routes/Auth"),
  AuthCallback: () => import("@/routes/AuthCallback"),
  Event: () => import("@/routes/Event"),
  SeasonShared: () => import("@/routes/SeasonShared"),
  Dashboard: () => import("@/routes/Dashboard"),
  Schedule: () => import("@/routes/Schedule"),
  Profile: () => import("@/routes/Profile"),
  Notifications: () => import("@/routes/Notifications"),
  PerformanceHistory: () => import("@/routes/PerformanceHistory"),
  Badges: () => import("@/routes/Badges"),
  Season: () => import("@/routes/Season"),
  Bits: () => import("@/routes/Bits"),
  Bit: () => import("@/routes/Bit"),
  SetLists: () => import("@/routes/SetLists"),
  SetList: () => import("@/routes/SetList"),
  SetBits: () => import("@/routes/SetBits"),
  OnboardingWelcome: () => import("@/routes/onboarding/Welcome"),
  Admin: () => import("@/routes/Admin"),
  NotFound: () => import("@/routes/NotFound"),
  LogSet: () => import("@/routes/LogSet"),
  AddEvent: () => import("@/routes/AddEvent"),
  OnboardingStep: () => import("@/routes/onboarding/Step"),
  AdminGate: () => import("./gates/AdminGate"),
};
