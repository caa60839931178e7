import { PageContainer } from "@/components/PageContainer";
import { AuthPage } from "@/features/auth/AuthPage";

export default function Auth() {
  return (
    <PageContainer size="1">
      <AuthPage />
    </PageContainer>
  );
}
