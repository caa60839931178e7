import { useConvexAuth, useQuery } from "convex/react";
import { lazy, Suspense } from "react";
import { Navigate, Outlet, useLocation } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";
import { isSigningOut } from "@/lib/session";
import { useRouteAccess } from "../routeAccess";

// The preview carries the sign-up form (zod, react-hook-form): load it only when shown.
const PreviewGate = lazy(() => import("./PreviewGate").then((m) => ({ default: m.PreviewGate })));

/**
 * Gate of the signed-in layout group: no session goes to /auth,
 * or sees a blurred preview on a section that allows one; a comedian who still
 * needs onboarding goes to /onboarding/welcome; everyone else gets the page.
 */
export function StartupGate() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const access = useRouteAccess();
  const location = useLocation();
  if (access?.kind === "public") {
    if (!isLoading && !isAuthenticated && isSigningOut(location.key)) return null;
    return <PublicPage signedIn={isAuthenticated} />;
  }
  if (isLoading) return <LoadingState label="Loading your session…" />;
  if (!isAuthenticated) {
    if (isSigningOut(location.key)) return null;
    if (access?.kind === "preview") {
      return (
        <Suspense fallback={<LoadingState />}>
          <PreviewGate section={access.section}>
            <Outlet />
          </PreviewGate>
        </Suspense>
      );
    }
    return <Navigate to={paths.auth} replace state={{ from: location.pathname }} />;
  }
  return <OnboardingGate />;
}

/**
 * A public page (the scene, the history's sign-in prompt) renders at once, before the
 * session is known: its queries are public and run without waiting for the auth
 * round trip, and the page shows the signed-in parts only once the session is
 * confirmed. The same element stays mounted as the session resolves, so nothing
 * re-renders from scratch; a comedian who still needs onboarding is sent there
 * as soon as their profile says so.
 */
function PublicPage({ signedIn }: { signedIn: boolean }) {
  const me = useQuery(api.profiles.me, signedIn ? {} : "skip");
  if (signedIn && me && me.needsOnboarding && !me.onboardingCompleted) {
    return <Navigate to={paths.onboarding("welcome")} replace />;
  }
  return <Outlet />;
}

function OnboardingGate() {
  const me = useQuery(api.profiles.me);
  if (me === undefined) return <LoadingState label="Loading your profile…" />;
  if (me !== null && me.needsOnboarding && !me.onboardingCompleted) {
    return <Navigate to={paths.onboarding("welcome")} replace />;
  }
  return <Outlet />;
}

/** For routes outside the group that still need a session (onboarding): signed out goes to /auth. */
export function RequireSession() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const location = useLocation();
  if (isLoading) return <LoadingState label="Loading your session…" />;
  if (!isAuthenticated) {
    if (isSigningOut(location.key)) return null;
    return <Navigate to={paths.auth} replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}
