import { Box, Callout, Spinner } from "@radix-ui/themes";
import { useConvexConnectionState } from "convex/react";
import { useEffect, useState } from "react";

/** How long a first connection may take before we say we are (re)connecting. */
const FIRST_CONNECT_GRACE_MS = 4000;

/** Tells the user when the live connection to the backend is down; the region is
 * always in the DOM (role=status) so screen readers announce the change. */
export function ConnectionBanner() {
  const state = useConvexConnectionState();
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), FIRST_CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);
  const down = !state.isWebSocketConnected && (state.hasEverConnected || graceOver);
  return (
    <div role="status" aria-live="polite" data-testid="connection-banner">
      {down ? (
        // The callout's tint is translucent; the panel behind it keeps page text from showing through.
        <Box style={{ background: "var(--color-panel-solid)" }}>
          <Callout.Root color="amber" size="1" variant="surface" style={{ borderRadius: 0 }}>
            <Callout.Icon>
              <Spinner size="1" />
            </Callout.Icon>
            <Callout.Text>Reconnecting…</Callout.Text>
          </Callout.Root>
        </Box>
      ) : null}
    </div>
  );
}
