import { ConvexAuthProvider, useAuthActions, useConvexAuth } from "@convex-dev/auth/react";
import type { ConvexReactClient } from "convex/react";
import { getFunctionName, type FunctionReference } from "convex/server";
import type { Value } from "convex/values";
import { useLayoutEffect, useMemo } from "react";
import type { Session, SessionSourceProps } from "./sessionSource";

/**
 * The app's client as Convex Auth's provider sees it: sign-in and token refresh
 * go through it, but the provider's own Convex provider does not set or clear its
 * token; SessionProvider's does, from the session published below.
 */
function forSessionOnly(
  client: ConvexReactClient,
  beginSignOut: SessionSourceProps["beginSignOut"],
): ConvexReactClient {
  const view = Object.create(client) as ConvexReactClient;
  view.action = ((action: FunctionReference<"action">, args?: Record<string, Value>) => {
    if (getFunctionName(action) !== "auth:signOut") return client.action(action, args ?? {});
    // The app stops its signed-in queries before the backend ends the session (they would fail
    // there first), and the client keeps the session's token until the sign-out has answered.
    return beginSignOut().then((done) => client.action(action, args ?? {}).finally(done));
  }) as ConvexReactClient["action"];
  view.setAuth = () => undefined;
  view.clearAuth = () => undefined;
  return view;
}

function Publish({ onSession }: Pick<SessionSourceProps, "onSession">) {
  const { isLoading, isAuthenticated, fetchAccessToken } = useConvexAuth();
  const actions = useAuthActions();
  // Before paint, so the session reaches the app in the same frame as it would inside the provider.
  useLayoutEffect(
    () => onSession({ isLoading, isAuthenticated, fetchAccessToken, actions } satisfies Session),
    [isLoading, isAuthenticated, fetchAccessToken, actions, onSession],
  );
  return null;
}

/**
 * Convex Auth's React provider (the stored session, its refresh, sign-in from a
 * `?code=` link, sign-in and sign-out), loaded after the first page's code and
 * rendered beside the app: it publishes the session to SessionProvider.
 */
export function ConvexAuthSession({ client, onSession, beginSignOut }: SessionSourceProps) {
  const view = useMemo(() => forSessionOnly(client, beginSignOut), [client, beginSignOut]);
  return (
    <ConvexAuthProvider client={view}>
      <Publish onSession={onSession} />
    </ConvexAuthProvider>
  );
}
