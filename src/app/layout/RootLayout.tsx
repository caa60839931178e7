import { Box } from "@radix-ui/themes";
import { lazy, Suspense } from "react";
import { Outlet } from "react-router-dom";
import { ConnectionBanner } from "@/components/ConnectionBanner";
import { BadgeToaster } from "@/features/badges/BadgeToaster";
import { ListNotifier } from "@/features/live-list/ListNotifier";
import { useEnsureProfile } from "../gates/useEnsureProfile";
import { ScrollToTop } from "./ScrollToTop";
import { TopBar } from "./TopBar";

// Service worker registration and its update prompt: not part of the first paint.
const UpdatePrompt = lazy(() => import("../pwa/UpdatePrompt"));

/** The frame of every page: top bar, the page, and the connection banner. */
export function RootLayout() {
  useEnsureProfile();
  return (
    <>
      <ScrollToTop />
      <BadgeToaster />
      <ListNotifier />
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
      <TopBar />
      <Box asChild style={{ minHeight: "calc(100vh - 57px)" }}>
        <main id="main">
          <Outlet />
        </main>
      </Box>
      <Box position="fixed" bottom="0" left="0" right="0" style={{ zIndex: 20 }}>
        <ConnectionBanner />
      </Box>
    </>
  );
}
