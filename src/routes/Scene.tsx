import { PageContainer } from "../components/PageContainer";
import { ScenePage } from "../features/scene/list/ScenePage";

export default function Scene() {
  return (
    <PageContainer size="4">
      <ScenePage />
    </PageContainer>
  );
}
