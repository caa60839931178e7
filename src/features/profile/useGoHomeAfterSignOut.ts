import { useCallback, useEffect, useRef } from "react";
import { useNavigate } from "react-router-dom";
import { paths } from "@/lib/paths";

const WAIT_LIMIT_MS = 3000;

/**
 * Runs a sign-out and then lands on the landing page. /profile needs a
 * session, so once the sign-out reaches the app the route gate swaps this
 * page for a redirect to /auth, and re-issues that redirect whenever it
 * re-renders: a navigation started while the gate is still up loses to it.
 * So wait until this page is unmounted and the address has left it (at most
 * 3 s), then go home.
 */
export function useGoHomeAfterSignOut(): (signOut: () => Promise<void>) => Promise<void> {
  const navigate = useNavigate();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(
    async (signOut) => {
      const startPath = window.location.pathname;
      await signOut();
      const started = Date.now();
      while ((mounted.current || window.location.pathname === startPath) && Date.now() - started < WAIT_LIMIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await navigate(paths.home, { replace: true });
    },
    [navigate],
  );
}
