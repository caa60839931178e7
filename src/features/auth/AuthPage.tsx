import { useConvexAuth } from "convex/react";
import { useState } from "react";
import { Navigate, useLocation } from "@/lib/router";
import { paths } from "@/lib/paths";
import { AuthPanel, type AuthMode } from "./AuthPanel";

/** The form to open on: router state from a "Sign in" link, else `?mode=`, else sign-up. */
function initialMode(state: unknown, search: string): AuthMode {
  const fromState = (state as { mode?: unknown } | null)?.mode;
  if (fromState === "signIn" || fromState === "signUp") return fromState;
  const fromQuery = new URLSearchParams(search).get("mode");
  return fromQuery === "signin" || fromQuery === "signIn" ? "signIn" : "signUp";
}

/** Sign up or sign in; a signed-in visitor goes on to the dashboard. */
export function AuthPage() {
  const { isAuthenticated } = useConvexAuth();
  const location = useLocation();
  const [mode, setMode] = useState<AuthMode>(() => initialMode(location.state, location.search));
  // New accounts then meet the startup gate, which sends them to onboarding.
  if (isAuthenticated) return <Navigate to={paths.dashboard} replace />;
  return <AuthPanel mode={mode} onModeChange={setMode} />;
}
