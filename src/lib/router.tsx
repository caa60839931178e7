/**
 * The app's router: the part of React Router's declarative API the app uses
 * (BrowserRouter, Link, Navigate, Outlet and the location, navigation, params,
 * search and match hooks), in a few hundred bytes instead of React Router's
 * 12 KB, which every page loaded before its first card. History entries keep
 * React Router's shape ({ usr, key, idx }); navigations render in a transition.
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ComponentPropsWithRef,
  type MouseEvent,
  type ReactNode,
} from "react";
import { matchPath, navigationTarget, type Params, type PathPattern, type RouteMatch } from "./routeMatch";

export { matchPath, matchRoutes, type Params, type PathMatch, type RouteMatch, type RouteObject } from "./routeMatch";

export type Location = { pathname: string; search: string; hash: string; state: unknown; key: string };

export type NavigateOptions = { replace?: boolean; state?: unknown };

export type NavigateFunction = {
  (to: string, options?: NavigateOptions): void;
  (delta: number): void;
};

type HistoryState = { usr?: unknown; key?: string; idx?: number } | null;

const historyState = () => window.history.state as HistoryState;

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  const state = historyState();
  return { pathname, search, hash, state: state?.usr ?? null, key: state?.key ?? "default" };
}

const createKey = () => Math.random().toString(36).slice(2, 10);

/** `to` as a same-origin path ("/a?b#c"), resolved against the current URL; null for another origin. */
function resolve(to: string): string | null {
  const target = navigationTarget(to, window.location.href);
  return target !== null && "path" in target ? target.path : null;
}

function navigateTo(to: string | number, options: NavigateOptions = {}): void {
  if (typeof to === "number") {
    window.history.go(to);
    return;
  }
  const target = navigationTarget(to, window.location.href);
  if (target === null) return;
  if ("site" in target) {
    window.location.assign(target.site);
    return;
  }
  const { path } = target;
  const idx = (historyState()?.idx ?? 0) + (options.replace ? 0 : 1);
  const state = { usr: options.state ?? null, key: createKey(), idx };
  if (options.replace) window.history.replaceState(state, "", path);
  else {
    try {
      window.history.pushState(state, "", path);
    } catch {
      // Safari limits pushState calls; a full navigation still gets there.
      window.location.assign(path);
      return;
    }
  }
  notify();
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

const LocationContext = createContext<Location | null>(null);

function useRouterLocation(): Location {
  const location = useContext(LocationContext);
  if (location === null) throw new Error("Router hooks must be used inside <BrowserRouter>");
  return location;
}

/** The current location; a new object on every navigation. */
export const useLocation = useRouterLocation;

/** Navigates (in a transition): to a path, or by `delta` entries of the tab's history. Stable. */
export function useNavigate(): NavigateFunction {
  useRouterLocation();
  return navigateTo as NavigateFunction;
}

/** Holds the location, following the tab's history (back and forward) and the app's navigations. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(() => {
    // Numbered entries, as React Router numbers them ("back" is possible when idx > 0).
    if (typeof historyState()?.idx !== "number") window.history.replaceState({ ...historyState(), idx: 0 }, "");
    return readLocation();
  });
  useLayoutEffect(() => {
    const update = () => startTransition(() => setLocation(readLocation()));
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return <LocationContext value={location}>{children}</LocationContext>;
}

type RouteContextValue = { outlet: ReactNode; params: Params };
const RouteContext = createContext<RouteContextValue>({ outlet: null, params: {} });

/** Renders a matched branch: each route's element, with the next one as its <Outlet />. */
export function renderMatches(matches: RouteMatch<ReactNode>[] | null): ReactNode {
  if (!matches) return null;
  return matches.reduceRight<ReactNode>(
    (outlet, match) => (
      <RouteContext value={{ outlet, params: match.params }}>
        {match.route.element === undefined ? outlet : match.route.element}
      </RouteContext>
    ),
    null,
  );
}

/** Where a layout route shows its matched child. */
export function Outlet() {
  return useContext(RouteContext).outlet;
}

/** The matched route's parameters (decoded). */
export function useParams<T extends Params = Params>(): Partial<T> {
  return useContext(RouteContext).params as Partial<T>;
}

/** The current path's match of `pattern` (see matchPath), or null. */
export function useMatch(pattern: string | PathPattern) {
  const { pathname } = useRouterLocation();
  const { path, end = true } = typeof pattern === "string" ? { path: pattern } : pattern;
  return useMemo(() => matchPath({ path, end }, pathname), [path, end, pathname]);
}

type SearchInit = URLSearchParams | Record<string, string> | string;

/** The URL's query parameters, and a setter that navigates to the same path with new ones. */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { search } = useRouterLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      const init = typeof next === "function" ? next(new URLSearchParams(window.location.search)) : next;
      const query = new URLSearchParams(init).toString();
      navigateTo(window.location.pathname + (query ? `?${query}` : ""), options);
    },
    [],
  );
  return [params, set];
}

/** Navigates once rendered (a redirect). */
export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }) {
  useRouterLocation();
  const [saved] = useState(state);
  useEffect(() => navigateTo(to, { replace, state: saved }), [to, replace, saved]);
  return null;
}

export type LinkProps = Omit<ComponentPropsWithRef<"a">, "href"> & { to: string; replace?: boolean; state?: unknown };

/**
 * An anchor to `to` that navigates in the app on a plain primary click (a
 * modified click, another target or another origin is left to the browser).
 * A link to the current URL replaces its entry.
 */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  useRouterLocation();
  const path = useMemo(() => resolve(to), [to]);
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      path === null ||
      event.button !== 0 ||
      (target && target !== "_self") ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    ) {
      return;
    }
    event.preventDefault();
    const here = window.location.pathname + window.location.search + window.location.hash;
    navigateTo(path, { replace: replace ?? path === here, state });
  };
  return <a {...rest} href={path ?? to} target={target} onClick={click} />;
}
