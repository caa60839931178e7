import { PageContainer } from "@/components/PageContainer";
import { SetListsPage } from "@/features/bits/SetListsPage";

export default function SetLists() {
  return (
    <PageContainer>
      <SetListsPage />
    </PageContainer>
  );
}
