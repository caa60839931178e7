import { PageContainer } from "@/components/PageContainer";
import { LandingPage } from "@/features/landing/LandingPage";

export default function Landing() {
  return (
    <PageContainer size="4">
      <LandingPage />
    </PageContainer>
  );
}
