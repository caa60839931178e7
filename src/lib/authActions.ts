import type { ConvexAuthActionsContext } from "@convex-dev/auth/react";
import { createContext, useContext } from "react";

/** Convex Auth's sign-in and sign-out. */
export type AuthActions = ConvexAuthActionsContext;

/**
 * The session's actions, provided by src/app/SessionProvider.tsx: Convex Auth's own
 * once its code has loaded (after the first page), before that calls that wait for it.
 */
export const AuthActionsContext = createContext<AuthActions | null>(null);

/** Convex Auth's `useAuthActions`, without its code in the first load. */
export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (actions === null) throw new Error("useAuthActions needs the app's SessionProvider above it");
  return actions;
}
