import { ComingSoonPage } from "@/components/ComingSoonPage";

export default function Badges() {
  return <ComingSoonPage title="Badge Showcase" subtitle="Badges you earn on stage will show up here." />;
}
