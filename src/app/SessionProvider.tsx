import { ConvexProviderWithAuth, type ConvexReactClient } from "convex/react";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ComponentType,
  type ReactNode,
} from "react";
import { AuthActionsContext, type AuthActions } from "@/lib/authActions";

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
  /** The backend has ended the session (Convex Auth publishes the same a render later). */
  onSignOut: () => void;
};
type Source = ComponentType<SessionSourceProps>;

/** Until Convex Auth's provider has read the stored session: loading, as inside that provider before its first effect. */
const LOADING: Omit<Session, "actions"> = {
  isLoading: true,
  isAuthenticated: false,
  fetchAccessToken: () => Promise.resolve(null),
};

const SessionContext = createContext(LOADING);
const useSession = () => useContext(SessionContext);

let source: Promise<Source> | null = null;
/** Convex Auth's provider (src/app/ConvexAuthSession.tsx), loaded once; a failed load is tried again on the next call. */
function loadSource(): Promise<Source> {
  source ??= import("./ConvexAuthSession").then(
    (module) => module.ConvexAuthSession,
    (error: unknown) => {
      source = null;
      throw error;
    },
  );
  return source;
}
// Asked for as the entry runs, beside the page's own code, not before it.
loadSource().catch(() => undefined);

/**
 * The Convex client's provider with the session of Convex Auth, whose code
 * (sign-in, token refresh, its HTTP client) is not part of the first load: it
 * loads beside the page and renders next to the app (ConvexAuthSession), so the
 * app's tree stays mounted as it arrives. Until then the session is loading, as
 * it is inside Convex Auth's provider until it has read the stored token, and a
 * sign-in or sign-out waits for it.
 */
export function SessionProvider({ client, children }: { client: ConvexReactClient; children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [Loaded, setLoaded] = useState<Source | null>(null);
  const [ready] = useState(() => {
    let resolve: (actions: AuthActions) => void = () => undefined;
    const promise = new Promise<AuthActions>((r) => (resolve = r));
    return { promise, resolve };
  });
  useEffect(() => {
    let live = true;
    let timer: number | undefined;
    let wait = 1_000;
    const attempt = () =>
      loadSource().then(
        (loaded) => live && setLoaded(() => loaded),
        () => {
          if (!live) return;
          timer = window.setTimeout(() => void attempt(), wait);
          wait = Math.min(wait * 2, 30_000);
        },
      );
    void attempt();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, []);
  const waiting = useMemo<AuthActions>(
    () => ({
      signIn: async (provider, params) => (await ready.promise).signIn(provider, params),
      signOut: async () => (await ready.promise).signOut(),
    }),
    [ready],
  );
  const publish = useCallback(
    (next: Session) => {
      ready.resolve(next.actions);
      setSession(next);
    },
    [ready],
  );
  const signedOut = useCallback(
    () => setSession((current) => current && { ...current, isLoading: false, isAuthenticated: false }),
    [],
  );
  return (
    <SessionContext value={session ?? LOADING}>
      <AuthActionsContext value={session?.actions ?? waiting}>
        <ConvexProviderWithAuth client={client} useAuth={useSession}>
          {children}
        </ConvexProviderWithAuth>
      </AuthActionsContext>
      {Loaded ? <Loaded client={client} onSession={publish} onSignOut={signedOut} /> : null}
    </SessionContext>
  );
}
