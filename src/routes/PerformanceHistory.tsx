import { ComingSoonPage } from "@/components/ComingSoonPage";

export default function PerformanceHistory() {
  return <ComingSoonPage title="Performance History" subtitle="Every set you log will be listed here." />;
}
