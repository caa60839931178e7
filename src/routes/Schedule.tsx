import { ComingSoonPage } from "@/components/ComingSoonPage";

/** Placeholder until the schedule feature lands. */
export default function Schedule() {
  return <ComingSoonPage title="Your Schedule" subtitle="Your week of mics and shows will appear here." />;
}
