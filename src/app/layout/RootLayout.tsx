import { Box } from "@radix-ui/themes";
import { useConvexAuth, useConvexConnectionState } from "convex/react";
import { lazy, Suspense } from "react";
import { Outlet } from "@/lib/router";
import { ConnectionBanner } from "@/components/ConnectionBanner";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { useOnline } from "@/lib/useOnline";
import { ScrollToTop } from "./ScrollToTop";
import { TopBar } from "./TopBar";

// Badges earned (signed in only, with the badge icons): not part of the first paint.
const BadgeToaster = lazy(() => import("@/features/badges/BadgeToaster").then((m) => ({ default: m.BadgeToaster })));
// The profile check and the live list's notices: signed-in only, not part of the first paint.
const SignedInTasks = lazy(() => import("./SignedInTasks"));
// Service worker registration and its update prompt: not part of the first paint.
const UpdatePrompt = lazy(() => import("../pwa/UpdatePrompt"));
// The offline copy and outbox, and the page shown without a network (both precached).
const Pocket = lazy(() => import("@/features/offline/Pocket"));
const OfflineShelf = lazy(() => import("@/features/offline/OfflineShelf"));

/** The frame of every page: top bar, the page, and the connection banner. */
export function RootLayout() {
  const { isAuthenticated } = useConvexAuth();
  // Started without a network: the device's copy. A page that loaded online keeps working
  // offline on the client's own state (its changes are sent on reconnect).
  const online = useOnline();
  const { hasEverConnected } = useConvexConnectionState();
  const offlineStart = !online && !hasEverConnected;
  return (
    <>
      <ScrollToTop />
      <ErrorBoundary fallback={null}>
        <Suspense fallback={null}>
          <BadgeToaster />
        </Suspense>
      </ErrorBoundary>
      {isAuthenticated ? (
        <ErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <SignedInTasks />
          </Suspense>
        </ErrorBoundary>
      ) : null}
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
      <TopBar />
      <Box asChild style={{ minHeight: "calc(100vh - 57px)" }}>
        <main id="main">
          {/* The offline copy is kept in the background: a query of its failing never takes the page down. */}
          <ErrorBoundary fallback={null}>
            <Suspense fallback={null}>
              <Pocket />
            </Suspense>
          </ErrorBoundary>
          {offlineStart ? (
            <Suspense fallback={null}>
              <OfflineShelf />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </main>
      </Box>
      <Box position="fixed" bottom="0" left="0" right="0" style={{ zIndex: 20 }}>
        <ConnectionBanner />
      </Box>
    </>
  );
}
