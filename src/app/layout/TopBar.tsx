import { CalendarIcon, DashboardIcon, MagnifyingGlassIcon, ReaderIcon } from "@radix-ui/react-icons";
import { Box, Button, Flex, Skeleton, Text } from "@radix-ui/themes";
import { useConvexAuth } from "convex/react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Link as RouterLink, useMatch } from "@/lib/router";
import { paths } from "@/lib/paths";
import { useHideOnScroll } from "./useHideOnScroll";

// Menus pull in popper and focus-trap code that signed-out visitors never need.
const AccountMenu = lazy(() => import("./AccountMenu"));
const NotificationBell = lazy(() => import("@/features/notifications/NotificationBell"));

function NavItem({ to, label, icon }: { to: string; label: string; icon: ReactNode }) {
  const active = useMatch({ path: to, end: false }) !== null;
  return (
    <Button
      asChild
      variant={active ? "soft" : "ghost"}
      color={active ? undefined : "gray"}
      size="2"
      highContrast={!active}
    >
      {/* Below the sm breakpoint only the icon shows; the label stays the accessible name. */}
      <RouterLink to={to} aria-label={label} aria-current={active ? "page" : undefined}>
        {icon}
        <Box asChild display={{ initial: "none", sm: "inline" }}>
          <span>{label}</span>
        </Box>
      </RouterLink>
    </Button>
  );
}

/**
 * The top navigation bar. It slides away while scrolling down (past 10 px) and
 * returns on scrolling up or near the top; it stays in the DOM and comes back
 * whenever something in it has keyboard focus.
 */
export function TopBar() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const scrolledAway = useHideOnScroll();
  const [focusInside, setFocusInside] = useState(false);
  const hidden = scrolledAway && !focusInside;
  return (
    <Box
      asChild
      data-hidden={hidden ? "true" : "false"}
      data-testid="top-bar"
      style={{
        position: "sticky",
        top: 0,
        zIndex: 10,
        transform: hidden ? "translateY(-100%)" : "none",
        transition: "transform 200ms ease",
        background: "var(--color-panel-solid)",
        borderBottom: "1px solid var(--gray-a5)",
      }}
    >
      <header
        onFocus={() => setFocusInside(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusInside(false);
        }}
      >
        <Flex align="center" justify="between" gap="2" px={{ initial: "3", sm: "5" }} py="2" style={{ minHeight: 56 }}>
          <RouterLink to={paths.home} aria-label="StageTime home" style={{ textDecoration: "none", color: "inherit" }}>
            <Flex align="center" gap="2" style={{ minHeight: 44, minWidth: 44 }}>
              <img src="/favicon.svg" alt="" width={28} height={28} />
              <Box asChild display={{ initial: "none", xs: "inline" }}>
                <Text size="4" weight="bold">
                  StageTime
                </Text>
              </Box>
            </Flex>
          </RouterLink>
          <Flex align="center" gap={{ initial: "3", sm: "4" }} asChild>
            <nav aria-label="Main">
              <NavItem to={paths.dashboard} label="Dashboard" icon={<DashboardIcon aria-hidden="true" />} />
              <NavItem to={paths.schedule} label="Schedule" icon={<CalendarIcon aria-hidden="true" />} />
              <NavItem to={paths.scene} label="Scene" icon={<MagnifyingGlassIcon aria-hidden="true" />} />
              <NavItem to={paths.bits} label="Bits" icon={<ReaderIcon aria-hidden="true" />} />
            </nav>
          </Flex>
          <Flex align="center" justify="end" gap="1" style={{ minWidth: 40 }}>
            {isLoading ? null : isAuthenticated ? (
              <Suspense fallback={<Skeleton width="32px" height="32px" style={{ borderRadius: "50%" }} />}>
                <NotificationBell />
                <AccountMenu />
              </Suspense>
            ) : (
              <Button asChild size="2">
                <RouterLink to={paths.auth} state={{ mode: "signIn" }}>
                  Sign In
                </RouterLink>
              </Button>
            )}
          </Flex>
        </Flex>
      </header>
    </Box>
  );
}
