import { useParams } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { RateSetPage } from "@/features/bits/RateSetPage";

export default function SetBits() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer>
      <RateSetPage id={id} />
    </PageContainer>
  );
}
