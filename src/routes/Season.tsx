import { PageContainer } from "@/components/PageContainer";
import { SeasonPage } from "@/features/season/SeasonPage";

export default function Season() {
  return (
    <PageContainer>
      <SeasonPage />
    </PageContainer>
  );
}
