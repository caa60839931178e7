import { ConvexReactClient } from "convex/react";
import { adoptHttpFirstPage, prewarmSceneFirstPage } from "@/features/scene/list/firstPage";

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
// On /scene, its first page is asked for now, not once the page has loaded and rendered;
// the same page index.html's script asked for over HTTP is kept for the page too.
if (convex !== null) {
  prewarmSceneFirstPage(convex, window.location.pathname);
  adoptHttpFirstPage();
}
