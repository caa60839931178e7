import { ComingSoonPage } from "@/components/ComingSoonPage";

export default function Admin() {
  return <ComingSoonPage title="Admin Dashboard" subtitle="Manage comedy mics and review claims" />;
}
