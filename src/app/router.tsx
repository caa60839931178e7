import { BrowserRouter, matchRoutes, Navigate, renderMatches, useLocation, type RouteObject } from "@/lib/router";
import { Suspense, use, useEffect, useMemo, type ComponentType, type ReactNode } from "react";
import { LoadingState } from "@/components/LoadingState";
import { afterNextPaint } from "@/lib/afterNextPaint";
import { loadOnce } from "@/lib/loadOnce";
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

type PageLoaders = typeof import("./pageLoaders").pageLoaders;

/** The other pages' loaders (pageLoaders.ts), loaded once; a failed load is tried again on the next call. */
const loadPageLoaders: () => Promise<PageLoaders> = loadOnce(() =>
  import("./pageLoaders").then((module) => module.pageLoaders),
);

/** A page of pageLoaders.ts: its table first (usually already in), then the page. */
const later =
  <K extends keyof PageLoaders>(name: K) =>
  async (): Promise<Awaited<ReturnType<PageLoaders[K]>>> =>
    (await loadPageLoaders())[name]() as Promise<Awaited<ReturnType<PageLoaders[K]>>>;

/** A child path of the root ("/log-set/event" → "log-set/event"). */
const rel = (path: string) => path.replace(/^\//, "");

/** A path relative to its parent route ("/onboarding/venue" under "/onboarding" → "venue"). */
const under = (parent: string, path: string) => path.slice(parent.length).replace(/^\//, "");

const logSetPage = (step: number) => async () => {
  const { default: LogSet } = await later("LogSet")();
  return { element: <LogSet step={step} /> };
};

const addEventPage = (step: number) => async () => {
  const { default: AddEvent } = await later("AddEvent")();
  return { element: <AddEvent step={step} /> };
};

const onboardingPage = (step: Exclude<OnboardingStep, "welcome">): AppRoute => ({
  path: under(paths.onboardingRoot, paths.onboarding(step)),
  lazy: async () => {
    const { default: Step } = await later("OnboardingStep")();
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
    lazy: page(later("EventListScreen")),
  },
  // The stage view fills a phone on a dark stage: large type, no top bar.
  {
    path: paths.setListStagePattern,
    errorElement: true,
    HydrateFallback: () => <LoadingState label="Loading the set…" />,
    element: <RequireSession />,
    children: [{ index: true, lazy: page(later("SetListStage")) }],
  },
  {
    element: <RootLayout />,
    errorElement: true,
    HydrateFallback: () => <LoadingState label="Loading StageTime…" />,
    children: [
      { path: paths.home, lazy: page(() => import("@/routes/Landing")) },
      { path: rel(paths.auth), lazy: page(later("Auth")) },
      { path: rel(paths.authCallback), lazy: page(later("AuthCallback")) },
      { path: rel(paths.eventPattern), lazy: page(later("Event")) },
      { path: rel(paths.seasonSharedPattern), lazy: page(later("SeasonShared")) },
      { path: rel(paths.discover), element: <Navigate to={paths.home} replace /> },
      {
        // The signed-in layout group of the route table.
        element: <StartupGate />,
        children: [
          { path: rel(paths.dashboard), handle: preview("Dashboard"), lazy: page(later("Dashboard")) },
          { path: rel(paths.schedule), handle: preview("Schedule"), lazy: page(later("Schedule")) },
          {
            // The route table gives /scene a preview flag, but the spec's roles let
            // anonymous visitors browse and search the scene, so it is served in full
            // to them (the scene page handles the signed-out state itself); only the
            // dashboard and schedule are blurred previews.
            path: rel(paths.scene),
            handle: { access: { kind: "public" } } satisfies RouteHandle,
            lazy: page(() => import("@/routes/Scene")),
          },
          { path: rel(paths.profile), lazy: page(later("Profile")) },
          { path: rel(paths.notifications), lazy: page(later("Notifications")) },
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
            lazy: page(later("PerformanceHistory")),
          },
          { path: rel(paths.badges), lazy: page(later("Badges")) },
          { path: rel(paths.season), lazy: page(later("Season")) },
          { path: rel(paths.bits), lazy: page(later("Bits")) },
          { path: rel(paths.bitPattern), lazy: page(later("Bit")) },
          { path: rel(paths.setLists), lazy: page(later("SetLists")) },
          { path: rel(paths.setListPattern), lazy: page(later("SetList")) },
          { path: rel(paths.setBitsPattern), lazy: page(later("SetBits")) },
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
            lazy: page(later("OnboardingWelcome")),
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
        lazy: async () => ({ Component: (await later("AdminGate")()).AdminGate }),
        children: [{ index: true, lazy: page(later("Admin")) }],
      },
      { path: "*", lazy: page(later("NotFound")) },
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
  // The other pages' loaders, for the first navigation: once the first page has painted.
  useEffect(() => afterNextPaint(() => void loadPageLoaders().catch(() => undefined)), []);
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
