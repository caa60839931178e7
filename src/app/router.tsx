import { BrowserRouter, matchRoutes, Navigate, renderMatches, useLocation, type RouteObject } from "@/lib/router";
import { Suspense, use, useMemo, type ComponentType, type ReactNode } from "react";
import { LoadingState } from "@/components/LoadingState";
import { paths, ROUTE_PRELOADED_GLOBAL, type OnboardingStep } from "@/lib/paths";
import { RequireSession, StartupGate } from "./gates/StartupGate";
import { RootLayout } from "./layout/RootLayout";
import { RouteErrorBoundary } from "./RouteError";
import { RouteMatchesContext, type RouteHandle } from "./routeAccess";

/** What a lazy route's code gives: a component to render, or an element. */
type PageModule = { Component?: ComponentType; element?: ReactNode };
type Loader = () => Promise<PageModule>;

/**
 * A route of the table, rendered by the app's router (src/lib/router.tsx;
 * React Router's declarative API in a small part of its size). `lazy` code is loaded on first visit
 * (Suspense: a navigation keeps the old page until it is in, as it runs in a
 * transition); `HydrateFallback` shows meanwhile on a first load; an error
 * below a route with `errorElement` shows the route error page.
 */
type AppRoute = {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  lazy?: Loader;
  handle?: RouteHandle;
  errorElement?: true;
  HydrateFallback?: () => ReactNode;
  children?: AppRoute[];
};

/** Route-level code splitting: each page is its own chunk, loaded on first visit. */
function page(load: () => Promise<{ default: ComponentType }>): Loader {
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

const onboardingPage = (step: Exclude<OnboardingStep, "welcome">): AppRoute => ({
  path: under(paths.onboardingRoot, paths.onboarding(step)),
  lazy: async () => {
    const { default: Step } = await import("@/routes/onboarding/Step");
    return { element: <Step step={step} /> };
  },
});

const preview = (section: string): RouteHandle => ({ access: { kind: "preview", section } });

const routes: AppRoute[] = [
  // The room screen fills a TV in the venue: no top bar or app navigation around it.
  {
    path: paths.eventListScreenPattern,
    errorElement: true,
    HydrateFallback: () => <LoadingState label="Loading the room screen…" />,
    lazy: page(() => import("@/routes/EventListScreen")),
  },
  // The stage view fills a phone on a dark stage: large type, no top bar.
  {
    path: paths.setListStagePattern,
    errorElement: true,
    HydrateFallback: () => <LoadingState label="Loading the set…" />,
    element: <RequireSession />,
    children: [{ index: true, lazy: page(() => import("@/routes/SetListStage")) }],
  },
  {
    element: <RootLayout />,
    errorElement: true,
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

const loaded = new Map<Loader, PageModule>();
/** Each route's load under way or done, with the visit (location key) that started it and whether it failed. */
const loading = new Map<Loader, { promise: Promise<PageModule>; visit: string; failed: boolean }>();

/**
 * Starts loading a route's code, once: a failed load stays failed for the visit
 * that saw it (the error page shows) and is tried again on the next visit.
 */
function load(loader: Loader, visit: string): Promise<PageModule> {
  const current = loading.get(loader);
  if (current && !(current.failed && current.visit !== visit)) return current.promise;
  const entry = { visit, failed: false, promise: Promise.resolve<PageModule>({}) };
  entry.promise = loader().then(
    (module) => {
      loaded.set(loader, module);
      return module;
    },
    (error: unknown) => {
      entry.failed = true;
      throw error;
    },
  );
  loading.set(loader, entry);
  return entry.promise;
}

/** A lazy route: rendered at once when its code is in, else suspends until it is. */
function LazyRoute({ loader }: { loader: Loader }) {
  const visit = useLocation().key;
  const module = loaded.get(loader) ?? use(load(loader, visit));
  return module.Component ? <module.Component /> : module.element;
}

/** Each lazy route object's loader, for routerReady. */
const loaderOf = new WeakMap<RouteObject<ReactNode>, Loader>();

/** The table as the router's route objects (handles kept for useRouteAccess). */
function toRouteObjects(table: AppRoute[]): RouteObject<ReactNode>[] {
  return table.map(({ lazy, errorElement, HydrateFallback, children, element, ...rest }) => {
    let shown = lazy ? <LazyRoute loader={lazy} /> : element;
    if (HydrateFallback) shown = <Suspense fallback={<HydrateFallback />}>{shown}</Suspense>;
    if (errorElement) shown = <RouteErrorBoundary>{shown}</RouteErrorBoundary>;
    const base = { ...rest, element: shown };
    const object: RouteObject<ReactNode> = children ? { ...base, children: toRouteObjects(children) } : base;
    if (lazy) loaderOf.set(object, lazy);
    return object;
  });
}

const routeObjects = toRouteObjects(routes);

/** The lazy routes' loaders matched by a path. */
function loadersFor(pathname: string): Loader[] {
  return (matchRoutes(routeObjects, pathname) ?? []).flatMap((m) => loaderOf.get(m.route) ?? []);
}

/**
 * Where index.html preloaded the page's code (the scene, the landing page):
 * resolves once the router has it, or after `capMs`, so the first render is the
 * page itself, in one pass, instead of the "Loading StageTime…" fallback
 * followed by the page in a second, interruptible render. Elsewhere at once:
 * that page's code is not on its way yet, and the fallback shows meanwhile.
 */
export function routerReady(capMs: number): Promise<void> {
  const preloaded = (window as unknown as Record<string, unknown>)[ROUTE_PRELOADED_GLOBAL] === true;
  const pending = loadersFor(window.location.pathname).filter((loader) => !loaded.has(loader));
  if (!preloaded || pending.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = window.setTimeout(resolve, capMs);
    // A failed load shows the route's error page once rendered.
    // The first location's key, as the router will read it (a reload keeps the entry's own).
    const visit = (window.history.state as { key?: string } | null)?.key || "default";
    void Promise.allSettled(pending.map((loader) => load(loader, visit))).then(() => {
      window.clearTimeout(timer);
      resolve();
    });
  });
}

function AppRoutes() {
  const { pathname } = useLocation();
  const matches = useMemo(() => matchRoutes(routeObjects, pathname), [pathname]);
  return <RouteMatchesContext value={matches ?? []}>{renderMatches(matches)}</RouteMatchesContext>;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
