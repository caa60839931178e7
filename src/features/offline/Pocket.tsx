import { Callout } from "@radix-ui/themes";
import { useOnline } from "@/lib/useOnline";
import { useOfflineCapture, useOutbox, useOutboxSync } from "./usePocket";

/**
 * Runs on every page: keeps the offline copy fresh, sends the outbox when the network is
 * back, and says how many sets are still waiting while they are.
 */
export default function Pocket() {
  const online = useOnline();
  const userId = useOfflineCapture();
  const outbox = useOutbox(userId);
  useOutboxSync(userId, online, outbox.length);
  if (!online || outbox.length === 0) return null;
  return (
    <Callout.Root color="amber" size="1" role="status" style={{ borderRadius: 0 }}>
      <Callout.Text>
        {outbox.length === 1 ? "1 set saved on this phone" : `${outbox.length} sets saved on this phone`} — Waiting to
        sync
      </Callout.Text>
    </Callout.Root>
  );
}
