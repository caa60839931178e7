import { useParams } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { SharedSeasonPage } from "@/features/season/SharedSeasonPage";

export default function SeasonShared() {
  const { token } = useParams<{ token: string }>();
  return (
    <PageContainer>
      <SharedSeasonPage token={token ?? ""} />
    </PageContainer>
  );
}
