import { LockClosedIcon } from "@radix-ui/react-icons";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { Navigate, Outlet, useLocation, useNavigate } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/LoadingState";
import { PageContainer } from "@/components/PageContainer";
import { paths } from "@/lib/paths";
import { isSigningOut } from "@/lib/session";

function AccessDenied() {
  const navigate = useNavigate();
  const goBack = () => {
    // With no earlier page in this tab, "back" would leave the app.
    if (window.history.state && typeof window.history.state.idx === "number" && window.history.state.idx > 0) {
      void navigate(-1);
    } else {
      void navigate(paths.dashboard);
    }
  };
  return (
    <PageContainer size="2">
      <Flex direction="column" align="center" gap="4" py="9" style={{ textAlign: "center" }}>
        <Text color="red" aria-hidden="true">
          <LockClosedIcon width="40" height="40" />
        </Text>
        <Heading as="h1" size="7">
          Access Denied
        </Heading>
        <Text as="p" size="3" color="gray">
          You don't have permission to access the admin panel.
        </Text>
        <Button size="3" variant="soft" onClick={goBack}>
          Go Back
        </Button>
      </Flex>
    </PageContainer>
  );
}

/** Admin routes: signed out goes to /auth, a signed-in non-admin sees Access Denied. */
export function AdminGate() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const isAdmin = useQuery(api.profiles.isAdmin, isAuthenticated ? {} : "skip");
  const { key } = useLocation();
  if (isLoading) return <LoadingState label="Loading your session…" />;
  if (!isAuthenticated) return isSigningOut(key) ? null : <Navigate to={paths.auth} replace />;
  if (isAdmin === undefined) return <LoadingState label="Checking your access…" />;
  if (!isAdmin) return <AccessDenied />;
  return <Outlet />;
}
