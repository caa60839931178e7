import { useParams } from "react-router-dom";
import { StageView } from "@/features/bits/StageView";

/** /set-lists/:id/stage: the set in large type for the stage. */
export default function SetListStage() {
  const { id } = useParams<{ id: string }>();
  return <StageView id={id} />;
}
