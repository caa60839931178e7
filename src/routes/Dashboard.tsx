import { Flex } from "@radix-ui/themes";
import { PageContainer } from "../components/PageContainer";
import { RatingPrompt } from "../features/bits/RateBits";
import { DashboardPage } from "../features/dashboard/DashboardPage";
import { TonightSection } from "../features/scene/tonight/TonightSection";

export default function Dashboard() {
  return (
    <PageContainer>
      <Flex direction="column" gap="4">
        <RatingPrompt />
        <DashboardPage tonight={<TonightSection compact />} />
      </Flex>
    </PageContainer>
  );
}
