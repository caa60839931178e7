import { createContext, useContext } from "react";
import type { RouteMatch } from "@/lib/router";

/**
 * What a signed-out visitor gets on a route of the signed-in group, declared in the
 * route's `handle`: a blurred preview of a section, the page itself, or (when a
 * route declares nothing) a redirect to /auth.
 */
export type RouteAccess = { kind: "preview"; section: string } | { kind: "public" };

export type RouteHandle = { access?: RouteAccess };

/** The routes the current location matches, outermost first (provided by the router). */
export const RouteMatchesContext = createContext<RouteMatch[]>([]);

/** The access rule of the deepest matched route that declares one. */
export function useRouteAccess(): RouteAccess | undefined {
  const matches = useContext(RouteMatchesContext);
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].route.handle as RouteHandle | undefined;
    if (handle?.access) return handle.access;
  }
  return undefined;
}
