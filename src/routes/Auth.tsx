import { useConvexAuth } from "convex/react";
import { useState } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { PageContainer } from "@/components/PageContainer";
import { AuthPanel, type AuthMode } from "@/features/auth/AuthPanel";
import { paths } from "@/lib/paths";

function initialMode(state: unknown, search: string): AuthMode {
  const fromState = (state as { mode?: unknown } | null)?.mode;
  if (fromState === "signIn" || fromState === "signUp") return fromState;
  const fromQuery = new URLSearchParams(search).get("mode");
  return fromQuery === "signin" || fromQuery === "signIn" ? "signIn" : "signUp";
}

export default function Auth() {
  const { isAuthenticated } = useConvexAuth();
  const location = useLocation();
  const [mode, setMode] = useState<AuthMode>(() => initialMode(location.state, location.search));
  // New accounts then meet the startup gate, which sends them to onboarding.
  if (isAuthenticated) return <Navigate to={paths.dashboard} replace />;
  return (
    <PageContainer size="1">
      <AuthPanel mode={mode} onModeChange={setMode} />
    </PageContainer>
  );
}
