import { useConvexAuth, useMutation } from "convex/react";
import { useEffect, useRef } from "react";
import { api } from "@convex/_generated/api";

/** Calls profiles.ensure once per signed-in session (creates a missing profile row
 * for accounts made before profiles existed). Mounted once, in the root layout. */
export function useEnsureProfile(): void {
  const { isAuthenticated } = useConvexAuth();
  const ensure = useMutation(api.profiles.ensure);
  const done = useRef(false);
  useEffect(() => {
    if (!isAuthenticated) {
      done.current = false;
      return;
    }
    if (done.current) return;
    done.current = true;
    ensure().catch((err: unknown) => {
      // The gate still works from profiles.me; retry on the next session.
      console.error("Could not ensure the profile", err);
      done.current = false;
    });
  }, [ensure, isAuthenticated]);
}
