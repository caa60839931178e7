import { Flex } from "@radix-ui/themes";
import { useConvexAuth } from "convex/react";
import { Navigate } from "@/lib/router";
import { paths } from "@/lib/paths";
import { CommunityStats } from "./CommunityStats";
import { FeatureCards } from "./FeatureCards";
import { Hero } from "./Hero";

/** The landing page for visitors; a signed-in comedian goes on to the dashboard. */
export function LandingPage() {
  const { isAuthenticated } = useConvexAuth();
  if (isAuthenticated) return <Navigate to={paths.dashboard} replace />;
  return (
    <Flex direction="column" gap="9" pb="9">
      <Hero />
      <FeatureCards />
      <CommunityStats />
    </Flex>
  );
}
