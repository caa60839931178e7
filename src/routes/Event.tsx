import { useParams } from "react-router-dom";
import { PageContainer } from "../components/PageContainer";
import { EventPage } from "../features/scene/EventPage";

export default function Event() {
  const { id } = useParams<{ id: string }>();
  return (
    <PageContainer size="3">
      <EventPage id={id} />
    </PageContainer>
  );
}
