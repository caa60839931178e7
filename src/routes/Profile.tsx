import { PageContainer } from "@/components/PageContainer";
import { ProfilePage } from "@/features/profile/ProfilePage";

export default function Profile() {
  return (
    <PageContainer size="2">
      <ProfilePage />
    </PageContainer>
  );
}
