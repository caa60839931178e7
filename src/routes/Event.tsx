import { Flex } from "@radix-ui/themes";
import { useParams } from "@/lib/router";
import { PageContainer } from "../components/PageContainer";
import { EventOwnerTools } from "../features/claims/EventOwnerTools";
import { EventLiveList } from "../features/live-list/LiveListSection";
import { MicNumbers } from "../features/mic-numbers/MicNumbers";
import { EventPage } from "../features/scene/event/EventPage";

export default function Event() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer size="3">
      <Flex direction="column" gap="4">
        <EventPage id={id} />
        <EventLiveList id={id} />
        <MicNumbers id={id} />
        <EventOwnerTools id={id} />
      </Flex>
    </PageContainer>
  );
}
