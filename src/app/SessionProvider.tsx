import { ConvexProviderWithAuth, type ConvexReactClient } from "convex/react";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from "react";
import { AuthActionsContext, type AuthActions } from "@/lib/authActions";
import { loadOnce } from "@/lib/loadOnce";
import type { Session, SessionSourceProps } from "./sessionSource";

type Source = ComponentType<SessionSourceProps>;

/** Until Convex Auth's provider has read the stored session: loading, as inside that provider before its first effect. */
const LOADING: Omit<Session, "actions"> = {
  isLoading: true,
  isAuthenticated: false,
  fetchAccessToken: () => Promise.resolve(null),
};

const SessionContext = createContext(LOADING);
const useSession = () => useContext(SessionContext);

/** Convex Auth's provider (src/app/ConvexAuthSession.tsx), loaded once; a failed load is tried again on the next call. */
const loadSource = loadOnce(() => import("./ConvexAuthSession").then((module) => module.ConvexAuthSession));
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
  const latest = useRef<Session | null>(null);
  const publish = useCallback(
    (next: Session) => {
      ready.resolve(next.actions);
      latest.current = next;
      setSession(next);
    },
    [ready],
  );
  // While a sign-out is under way the client's token is kept: the sign-out itself needs it.
  const held = useRef<{ cleared: boolean } | null>(null);
  const authClient = useMemo(() => holdingClearAuth(client, held), [client]);
  const pending = useRef<(() => void) | null>(null);
  const beginSignOut = useCallback(
    () =>
      new Promise<() => void>((resolve) => {
        held.current = { cleared: false };
        const done = () => {
          const hold = held.current;
          held.current = null;
          if (hold?.cleared) client.clearAuth();
        };
        const stopped = () => {
          pending.current = null;
          resolve(done);
        };
        const current = latest.current;
        if (!current?.isAuthenticated) return stopped();
        pending.current = stopped;
        latest.current = { ...current, isLoading: false, isAuthenticated: false };
        setSession(latest.current);
      }),
    [client],
  );
  // Runs after the effects below it: the signed-out render has stopped every signed-in query.
  useEffect(() => {
    if (!session?.isAuthenticated) pending.current?.();
  }, [session]);
  return (
    <SessionContext value={session ?? LOADING}>
      <AuthActionsContext value={session?.actions ?? waiting}>
        <ConvexProviderWithAuth client={authClient} useAuth={useSession}>
          {children}
        </ConvexProviderWithAuth>
      </AuthActionsContext>
      {Loaded ? <Loaded client={client} onSession={publish} beginSignOut={beginSignOut} /> : null}
    </SessionContext>
  );
}

/** `client` whose clearAuth waits while `held` is set, and runs when the hold ends (see beginSignOut). */
function holdingClearAuth(client: ConvexReactClient, held: { current: { cleared: boolean } | null }) {
  return new Proxy(client, {
    get(target, property) {
      if (property === "clearAuth") return () => (held.current ? (held.current.cleared = true) : target.clearAuth());
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
