import { Flex } from "@radix-ui/themes";
import { PageContainer } from "@/components/PageContainer";
import { RatingPrompt } from "@/features/bits/RateBits";
import { HistoryPage } from "@/features/history/HistoryPage";

export default function PerformanceHistory() {
  return (
    <PageContainer>
      <Flex direction="column" gap="4">
        <RatingPrompt />
        <HistoryPage />
      </Flex>
    </PageContainer>
  );
}
