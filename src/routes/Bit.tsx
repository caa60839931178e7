import { useParams } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { BitPage } from "@/features/bits/BitPage";

export default function Bit() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer>
      <BitPage id={id} />
    </PageContainer>
  );
}
