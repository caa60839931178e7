import { PageContainer } from "../components/PageContainer";
import { DashboardPage } from "../features/dashboard/DashboardPage";

export default function Dashboard() {
  return (
    <PageContainer>
      <DashboardPage />
    </PageContainer>
  );
}
