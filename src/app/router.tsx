import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from "react-router-dom";
import type { ComponentType } from "react";
import { LoadingState } from "@/components/LoadingState";
import { paths, ROUTE_PRELOADED_GLOBAL, type OnboardingStep } from "@/lib/paths";
import { RequireSession, StartupGate } from "./gates/StartupGate";
import { RootLayout } from "./layout/RootLayout";
import { RouteError } from "./RouteError";
import type { RouteHandle } from "./routeAccess";

/** Route-level code splitting: each page is its own chunk, loaded on first visit. */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject["lazy"] {
  return async () => ({ Component: (await load()).default });
}

/** A child path of the root ("/log-set/event" → "log-set/event"). */
const rel = (path: string) => path.replace(/^\//, "");

/** A path relative to its parent route ("/onboarding/venue" under "/onboarding" → "venue"). */
const under = (parent: string, path: string) => path.slice(parent.length).replace(/^\//, "");

const logSetPage = (step: number) => async () => {
  const { default: LogSet } = await import("@/routes/LogSet");
  return { element: <LogSet step={step} /> };
};

const addEventPage = (step: number) => async () => {
  const { default: AddEvent } = await import("@/routes/AddEvent");
  return { element: <AddEvent step={step} /> };
};

const onboardingPage = (step: Exclude<OnboardingStep, "welcome">): RouteObject => ({
  path: under(paths.onboardingRoot, paths.onboarding(step)),
  lazy: async () => {
    const { default: Step } = await import("@/routes/onboarding/Step");
    return { element: <Step step={step} /> };
  },
});

const preview = (section: string): RouteHandle => ({ access: { kind: "preview", section } });

export const routes: RouteObject[] = [
  // The room screen fills a TV in the venue: no top bar or app navigation around it.
  {
    path: paths.eventListScreenPattern,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingState label="Loading the room screen…" />,
    lazy: page(() => import("@/routes/EventListScreen")),
  },
  // The stage view fills a phone on a dark stage: large type, no top bar.
  {
    path: paths.setListStagePattern,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingState label="Loading the set…" />,
    element: <RequireSession />,
    children: [{ index: true, lazy: page(() => import("@/routes/SetListStage")) }],
  },
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => <LoadingState label="Loading StageTime…" />,
    children: [
      { path: paths.home, lazy: page(() => import("@/routes/Landing")) },
      { path: rel(paths.auth), lazy: page(() => import("@/routes/Auth")) },
      { path: rel(paths.authCallback), lazy: page(() => import("@/routes/AuthCallback")) },
      { path: rel(paths.eventPattern), lazy: page(() => import("@/routes/Event")) },
      { path: rel(paths.seasonSharedPattern), lazy: page(() => import("@/routes/SeasonShared")) },
      { path: rel(paths.discover), element: <Navigate to={paths.home} replace /> },
      {
        // The signed-in layout group of the route table.
        element: <StartupGate />,
        children: [
          { path: rel(paths.dashboard), handle: preview("Dashboard"), lazy: page(() => import("@/routes/Dashboard")) },
          { path: rel(paths.schedule), handle: preview("Schedule"), lazy: page(() => import("@/routes/Schedule")) },
          {
            // The route table gives /scene a preview flag, but the spec's roles let
            // anonymous visitors browse and search the scene, so it is served in full
            // to them (the scene page handles the signed-out state itself); only the
            // dashboard and schedule are blurred previews.
            path: rel(paths.scene),
            handle: { access: { kind: "public" } } satisfies RouteHandle,
            lazy: page(() => import("@/routes/Scene")),
          },
          { path: rel(paths.profile), lazy: page(() => import("@/routes/Profile")) },
          { path: rel(paths.notifications), lazy: page(() => import("@/routes/Notifications")) },
          { path: rel(paths.logSet), lazy: logSetPage(1) },
          { path: rel(paths.logSetStep("venue")), lazy: logSetPage(1) },
          { path: rel(paths.logSetStep("event")), lazy: logSetPage(2) },
          { path: rel(paths.logSetStep("details")), lazy: logSetPage(3) },
          { path: rel(paths.logSetStep("venue-details")), lazy: logSetPage(4) },
          { path: rel(paths.logSetStep("success")), lazy: logSetPage(5) },
          { path: rel(paths.addEvent), lazy: addEventPage(1) },
          { path: rel(paths.addEventStep("event")), lazy: addEventPage(2) },
          { path: rel(paths.addEventStep("details")), lazy: addEventPage(3) },
          { path: rel(paths.addEventStep("success")), lazy: addEventPage(4) },
          // Signed-out visitors see the page's own sign-in prompt.
          {
            path: rel(paths.performanceHistory),
            handle: { access: { kind: "public" } } satisfies RouteHandle,
            lazy: page(() => import("@/routes/PerformanceHistory")),
          },
          { path: rel(paths.badges), lazy: page(() => import("@/routes/Badges")) },
          { path: rel(paths.season), lazy: page(() => import("@/routes/Season")) },
          { path: rel(paths.bits), lazy: page(() => import("@/routes/Bits")) },
          { path: rel(paths.bitPattern), lazy: page(() => import("@/routes/Bit")) },
          { path: rel(paths.setLists), lazy: page(() => import("@/routes/SetLists")) },
          { path: rel(paths.setListPattern), lazy: page(() => import("@/routes/SetList")) },
          { path: rel(paths.setBitsPattern), lazy: page(() => import("@/routes/SetBits")) },
        ],
      },
      {
        // Onboarding needs a session but must not pass the onboarding redirect.
        path: rel(paths.onboardingRoot),
        element: <RequireSession />,
        children: [
          { index: true, element: <Navigate to={paths.onboarding("welcome")} replace /> },
          {
            path: under(paths.onboardingRoot, paths.onboarding("welcome")),
            lazy: page(() => import("@/routes/onboarding/Welcome")),
          },
          onboardingPage("venue"),
          onboardingPage("event"),
          onboardingPage("details"),
          onboardingPage("venue-details"),
          onboardingPage("success"),
          onboardingPage("checkin-info"),
          onboardingPage("add-another"),
          onboardingPage("goal-setting"),
          onboardingPage("complete"),
        ],
      },
      {
        path: rel(paths.admin),
        lazy: async () => ({ Component: (await import("./gates/AdminGate")).AdminGate }),
        children: [{ index: true, lazy: page(() => import("@/routes/Admin")) }],
      },
      { path: "*", lazy: page(() => import("@/routes/NotFound")) },
    ],
  },
];

const router = createBrowserRouter(routes);

/**
 * Where index.html preloaded the page's code (the scene, the landing page):
 * resolves once the router has it, or after `capMs`, so the first render is the
 * page itself, in one pass, instead of the "Loading StageTime…" fallback
 * followed by the page in a second, interruptible render. Elsewhere at once:
 * that page's code is not on its way yet, and the fallback shows meanwhile.
 */
export function routerReady(capMs: number): Promise<void> {
  const preloaded = (window as unknown as Record<string, unknown>)[ROUTE_PRELOADED_GLOBAL] === true;
  return new Promise<void>((resolve) => {
    if (!preloaded || router.state.initialized) {
      resolve();
      return;
    }
    const done = () => {
      window.clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = window.setTimeout(done, capMs);
    const unsubscribe = router.subscribe((state) => {
      if (state.initialized) done();
    });
  });
}

export function AppRouter() {
  return <RouterProvider router={router} />;
}
