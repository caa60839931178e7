import { useParams } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { SetListPage } from "@/features/bits/SetListPage";

export default function SetList() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer>
      <SetListPage id={id} />
    </PageContainer>
  );
}
