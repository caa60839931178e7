import { useAuthActions } from "@/lib/authActions";
import { useConvexAuth, useMutation } from "convex/react";
import { useCallback } from "react";
import { useLocation, useNavigate } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { forgetThisDevice } from "@/components/notifications/pushDevice";
import { type SignOutOutcome, signOutToast } from "@/lib/authErrors";
import { paths } from "@/lib/paths";
import { clearLocalSessionState, setSigningOut } from "@/lib/session";
import { showToast } from "@/lib/toast";

/**
 * Ends the session from this page, then goes home: the session gates wait on this page
 * meanwhile (they would send it to /auth), and any navigation ends that.
 */
export function useLeaveHome(): (end: () => Promise<void>) => Promise<void> {
  const navigate = useNavigate();
  const { key } = useLocation();
  return useCallback(
    async (end) => {
      setSigningOut(key);
      await end();
      navigate(paths.home, { replace: true });
    },
    [key, navigate],
  );
}

/** Signs out: local state first, then the backend, then home with the spec's toast. */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuthActions();
  const { isAuthenticated } = useConvexAuth();
  const leaveHome = useLeaveHome();
  const unsubscribe = useMutation(api.notifications.unsubscribe);
  return useCallback(
    () =>
      leaveHome(async () => {
        // @convex-dev/auth ignores a backend refusal; a session that had already lapsed
        // here is the case where the backend would refuse.
        let outcome: SignOutOutcome = isAuthenticated ? "ok" : "expired";
        try {
          // This device stops getting the account's notifications (needs the session, so first).
          if (isAuthenticated) await forgetThisDevice((endpoint) => unsubscribe({ endpoint }));
          clearLocalSessionState();
          await signOut();
        } catch (err) {
          console.error("Sign-out failed", err);
          outcome = "local";
        }
        showToast(signOutToast(outcome), outcome === "ok" ? "success" : "info");
      }),
    [isAuthenticated, leaveHome, signOut, unsubscribe],
  );
}
