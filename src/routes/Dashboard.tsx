import { PageContainer } from "../components/PageContainer";
import { DashboardPage } from "../features/dashboard/DashboardPage";
import { TonightSection } from "../features/scene/tonight/TonightSection";

export default function Dashboard() {
  return (
    <PageContainer>
      <DashboardPage tonight={<TonightSection compact />} />
    </PageContainer>
  );
}
