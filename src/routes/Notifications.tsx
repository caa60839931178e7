import { PageContainer } from "@/components/PageContainer";
import { InboxPage } from "@/features/notifications/InboxPage";

export default function Notifications() {
  return (
    <PageContainer size="2">
      <InboxPage />
    </PageContainer>
  );
}
