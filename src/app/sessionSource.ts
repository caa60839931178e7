import type { ConvexReactClient } from "convex/react";
import type { AuthActions } from "@/lib/authActions";

/** What Convex Auth's provider knows of the session (as its `useConvexAuth` gives it), and its actions. */
export type Session = {
  isLoading: boolean;
  isAuthenticated: boolean;
  fetchAccessToken: (args: { forceRefreshToken: boolean }) => Promise<string | null>;
  actions: AuthActions;
};

export type SessionSourceProps = {
  client: ConvexReactClient;
  onSession: (session: Session) => void;
  /**
   * Shows the app signed out (its signed-in queries stopped) while the client keeps the
   * session's token; resolves then with `done`, to call once the backend's sign-out has answered.
   */
  beginSignOut: () => Promise<() => void>;
};
