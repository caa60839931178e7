import { PageContainer } from "@/components/PageContainer";
import { BitsPage } from "@/features/bits/BitsPage";

export default function Bits() {
  return (
    <PageContainer>
      <BitsPage />
    </PageContainer>
  );
}
