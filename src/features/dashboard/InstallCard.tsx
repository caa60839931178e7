import { useId, useState, useSyncExternalStore } from "react";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { installAvailable, promptInstall, subscribeInstall } from "@/lib/installPrompt";

const DISMISSED_KEY = "stagetime:install-dismissed";
/** "Not now" holds for a month, then the card may ask again. */
const DISMISS_MS = 30 * 24 * 60 * 60 * 1000;

function dismissedRecently(): boolean {
  const at = Number(localStorage.getItem(DISMISSED_KEY));
  return Number.isFinite(at) && at > 0 && Date.now() - at < DISMISS_MS;
}

/**
 * Offers to install StageTime where the browser can (Chromium), saying why; nothing elsewhere.
 * `onGone` takes keyboard focus somewhere sensible once either button has removed the card.
 */
export function InstallCard({ onGone }: { onGone: () => void }) {
  const titleId = useId();
  const available = useSyncExternalStore(subscribeInstall, installAvailable, () => false);
  const [dismissed, setDismissed] = useState(dismissedRecently);
  if (!available || dismissed) return null;
  const notNow = () => {
    localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    setDismissed(true);
    onGone();
  };
  const install = () => {
    void promptInstall();
    onGone();
  };
  return (
    <Card size="2" role="region" aria-labelledby={titleId}>
      <Flex direction="column" gap="2">
        <Heading as="h2" size="3" id={titleId}>
          Put StageTime on your home screen
        </Heading>
        <Text size="2" color="gray">
          It opens like an app, and tonight's list, your place on it and your week open even with no signal.
        </Text>
        <Flex gap="3" wrap="wrap">
          <Button onClick={install}>Install</Button>
          <Button variant="soft" color="gray" onClick={notNow}>
            Not now
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
