import { ListNotifier } from "@/features/live-list/ListNotifier";
import { useEnsureProfile } from "../gates/useEnsureProfile";

/** What the layout runs for a signed-in comedian only: the profile check and the live list's notices. */
export default function SignedInTasks() {
  useEnsureProfile();
  return <ListNotifier />;
}
