import { PageContainer } from "@/components/PageContainer";
import { BadgeShowcasePage } from "@/features/badge-showcase/BadgeShowcasePage";

export default function Badges() {
  return (
    <PageContainer>
      <BadgeShowcasePage />
    </PageContainer>
  );
}
