import { useParams } from "@/lib/router";
import { StageView } from "@/features/bits/StageView";

/** /set-lists/:id/stage: the set in large type for the stage. */
export default function SetListStage() {
  const { id } = useParams<{ id: string }>();
  return <StageView id={id} />;
}
