import { PageContainer } from "../components/PageContainer";
import { SchedulePage } from "../features/schedule/SchedulePage";

export default function Schedule() {
  return (
    <PageContainer size="4">
      <SchedulePage />
    </PageContainer>
  );
}
