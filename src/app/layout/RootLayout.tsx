import { Box } from "@radix-ui/themes";
import { Outlet } from "react-router-dom";
import { ConnectionBanner } from "@/components/ConnectionBanner";
import { BadgeToaster } from "@/features/badges/BadgeToaster";
import { ListNotifier } from "@/features/live-list/ListNotifier";
import { useEnsureProfile } from "../gates/useEnsureProfile";
import { ScrollToTop } from "./ScrollToTop";
import { TopBar } from "./TopBar";

/** The frame of every page: top bar, the page, and the connection banner. */
export function RootLayout() {
  useEnsureProfile();
  return (
    <>
      <ScrollToTop />
      <BadgeToaster />
      <ListNotifier />
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
