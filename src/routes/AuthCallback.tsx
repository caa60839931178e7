import { PageContainer } from "@/components/PageContainer";
import { AuthCallbackPage } from "@/features/auth/AuthCallbackPage";

/** /auth/callback: where Google sends the comedian back. */
export default function AuthCallback() {
  return (
    <PageContainer size="1">
      <AuthCallbackPage />
    </PageContainer>
  );
}
