import { PageContainer } from "@/components/PageContainer";
import { HistoryPage } from "@/features/history/HistoryPage";

export default function PerformanceHistory() {
  return (
    <PageContainer>
      <HistoryPage />
    </PageContainer>
  );
}
