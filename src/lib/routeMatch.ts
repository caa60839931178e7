/**
 * Route matching for the app's router (src/lib/router.tsx), with React Router's
 * rules for the patterns the app uses: static segments, `:name` parameters and a
 * trailing `*`; case-insensitive; trailing slashes ignored; the most specific
 * route wins (static over parameter over splat), ties in table order.
 */

export type Params = Record<string, string | undefined>;

/** A route of a table: layout routes have no path, index routes match their parent's path. */
export type RouteObject<Element = unknown> = {
  path?: string;
  index?: boolean;
  element?: Element;
  handle?: unknown;
  children?: RouteObject<Element>[];
};

/** One route of the matched branch, outermost first; every match carries all the branch's params. */
export type RouteMatch<Element = unknown> = { route: RouteObject<Element>; params: Params; pathname: string };

export type PathMatch = { params: Params; pathname: string };

/** `{ path, end }`: with `end: false`, the pattern matches the path's start, by whole segments. */
export type PathPattern = { path: string; end?: boolean };

const PARAM = /^:[\w-]+$/;

function compile(path: string, end: boolean): { re: RegExp; names: string[] } {
  const names: string[] = [];
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)/g, (_, name: string) => {
        names.push(name);
        return "/([^\\/]+)";
      });
  if (path.endsWith("*")) {
    names.push("*");
    source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else if (end) source += "\\/*$";
  else if (path !== "" && path !== "/") source += "(?:(?=\\/|$))";
  return { re: new RegExp(source, "i"), names };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Matches `pattern` against a URL pathname (parameters decoded); null when it does not. */
export function matchPath(pattern: string | PathPattern, pathname: string): PathMatch | null {
  const { path, end = true } = typeof pattern === "string" ? { path: pattern } : pattern;
  const { re, names } = compile(path, end);
  const found = re.exec(pathname);
  if (!found) return null;
  const params: Params = {};
  names.forEach((name, i) => {
    const value = found[i + 1];
    params[name] = value === undefined ? undefined : decode(value);
  });
  const matched = found[0].replace(/(.)\/+$/, "$1");
  return { params, pathname: matched || "/" };
}

type Branch<Element> = { path: string; score: number; routes: RouteObject<Element>[] };

const join = (parent: string, path: string) => `${parent}/${path}`.replace(/\/\/+/g, "/");

/** Specificity as React Router scores it: segments count, static 10, parameter 3, empty 1, splat −2, index +2. */
function score(path: string, index: boolean): number {
  const segments = path.split("/");
  let total = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    total += PARAM.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return total;
}

function flatten<Element>(
  routes: RouteObject<Element>[],
  branches: Branch<Element>[] = [],
  parents: RouteObject<Element>[] = [],
  parentPath = "",
): Branch<Element>[] {
  for (const route of routes) {
    const path = route.path === undefined ? parentPath : join(parentPath, route.path);
    const chain = [...parents, route];
    if (route.children) flatten(route.children, branches, chain, path);
    // A layout route (no path) matches only through its children.
    if (route.path === undefined && !route.index) continue;
    branches.push({ path, score: score(path, route.index === true), routes: chain });
  }
  return branches;
}

const tables = new WeakMap<object, Branch<unknown>[]>();

/** The branch of `routes` that matches `pathname`, outermost route first; null when none does. */
export function matchRoutes<Element>(routes: RouteObject<Element>[], pathname: string): RouteMatch<Element>[] | null {
  let branches = tables.get(routes) as Branch<Element>[] | undefined;
  if (!branches) {
    // Stable sort: equal scores keep the table's order.
    branches = flatten(routes).sort((a, b) => b.score - a.score);
    tables.set(routes, branches);
  }
  for (const branch of branches) {
    const whole = matchPath(branch.path || "/", pathname);
    if (!whole) continue;
    let prefix = "";
    return branch.routes.map((route) => {
      if (route.path !== undefined) prefix = join(prefix, route.path);
      const own = matchPath({ path: prefix || "/", end: false }, pathname);
      return { route, params: whole.params, pathname: own?.pathname ?? whole.pathname };
    });
  }
  return null;
}

/**
 * Where a navigation to `to` from the page at `href` goes: a path of this origin ("/a?b#c"),
 * a page of another site (http or https only), or nowhere (a script or data URL).
 */
export function navigationTarget(to: string, href: string): { path: string } | { site: string } | null {
  const here = new URL(href);
  const url = new URL(to, here);
  if (url.origin === here.origin) return { path: url.pathname + url.search + url.hash };
  return url.protocol === "https:" || url.protocol === "http:" ? { site: url.href } : null;
}
