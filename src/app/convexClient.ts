import { ConvexReactClient } from "convex/react";
import { prewarmSceneFirstPage } from "@/features/scene/firstPage";

const convexUrl = import.meta.env.VITE_CONVEX_URL as string | undefined;

/**
 * One client for the whole app, created by the entry's first module (main.tsx
 * imports this before React DOM, Radix and the app), so it survives re-renders
 * and its WebSocket opens while the rest of the entry is still being evaluated.
 * Null when the build has no backend address (providers.tsx says so).
 */
export const convex = convexUrl ? new ConvexReactClient(convexUrl) : null;

// The client opens its WebSocket on first use: use it now, so the handshake is
// done when the first query subscribes.
convex?.connectionState();
// On /scene, its first page is asked for now, not once the page has loaded and rendered.
const prewarmed = convex !== null && prewarmSceneFirstPage(convex, window.location.pathname);

/**
 * Resolves once the client's WebSocket is open (its first messages, with the
 * prewarmed query, have gone out), or after `capMs`, whichever is first; at
 * once when nothing was prewarmed (any page but the scene's: nothing to wait for).
 */
export function prewarmSent(capMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!convex || !prewarmed || convex.connectionState().isWebSocketConnected) {
      resolve();
      return;
    }
    const done = () => {
      window.clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = window.setTimeout(done, capMs);
    const unsubscribe = convex.subscribeToConnectionState((state) => {
      if (state.isWebSocketConnected) done();
    });
  });
}
