import { useConvexAuth } from "convex/react";
import { useEffect, useState } from "react";
import { Navigate } from "@/lib/router";
import { LoadingState } from "@/components/LoadingState";
import { VisuallyHidden } from "@radix-ui/themes";
import { googleFailureToast } from "@/lib/authErrors";
import { paths } from "@/lib/paths";
import { showToast } from "@/lib/toast";

/** Longest wait for the code exchange before giving up. */
const CALLBACK_TIMEOUT_MS = 15_000;

/**
 * Back from Google: ConvexAuthProvider itself exchanges the `?code=` in the URL
 * for a session; this page waits for that and moves on (replacing history).
 */
export function AuthCallbackPage() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (isAuthenticated) return;
    const timer = setTimeout(() => setTimedOut(true), CALLBACK_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [isAuthenticated]);
  const failed = !isAuthenticated && (timedOut || !isLoading);
  useEffect(() => {
    if (failed) showToast(googleFailureToast(null), "error", "auth-callback-failed");
  }, [failed]);
  if (isAuthenticated) return <Navigate to={paths.dashboard} replace />;
  if (failed) return <Navigate to={paths.auth} replace />;
  return (
    <>
      <VisuallyHidden>
        <h1>Signing you in</h1>
      </VisuallyHidden>
      <LoadingState label="Signing you in…" />
    </>
  );
}
