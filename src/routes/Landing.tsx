import { Flex } from "@radix-ui/themes";
import { useConvexAuth } from "convex/react";
import { Navigate } from "react-router-dom";
import { PageContainer } from "@/components/PageContainer";
import { CommunityStats } from "@/features/landing/CommunityStats";
import { FeatureCards } from "@/features/landing/FeatureCards";
import { Hero } from "@/features/landing/Hero";
import { paths } from "@/lib/paths";

export default function Landing() {
  const { isAuthenticated } = useConvexAuth();
  if (isAuthenticated) return <Navigate to={paths.dashboard} replace />;
  return (
    <PageContainer size="4">
      <Flex direction="column" gap="9" pb="9">
        <Hero />
        <FeatureCards />
        <CommunityStats />
      </Flex>
    </PageContainer>
  );
}
