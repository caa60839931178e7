import { useParams } from "@/lib/router";
import { PageContainer } from "../components/PageContainer";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { RoomScreen } from "../features/live-list/RoomScreen";

/** /event/:id/list/screen: the room screen (read-only, big type, live). */
export default function EventListScreen() {
  const { id } = useParams<{ id: string }>();
  if (!id) return null;
  return (
    <main id="main">
      <PageContainer size="4">
        <ErrorBoundary key={id} fallback={null}>
          <RoomScreen id={id} />
        </ErrorBoundary>
      </PageContainer>
    </main>
  );
}
