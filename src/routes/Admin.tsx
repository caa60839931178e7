import { PageContainer } from "@/components/PageContainer";
import { AdminDashboard } from "@/features/admin/AdminDashboard";

export default function Admin() {
  return (
    <PageContainer size="3">
      <AdminDashboard />
    </PageContainer>
  );
}
