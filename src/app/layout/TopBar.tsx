import {
  CalendarIcon,
  DashboardIcon,
  ExitIcon,
  GearIcon,
  MagnifyingGlassIcon,
  PersonIcon,
} from "@radix-ui/react-icons";
import { Avatar, Box, Button, DropdownMenu, Flex, IconButton, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { useState, type ReactNode } from "react";
import { Link as RouterLink, useMatch, useNavigate } from "react-router-dom";
import { api } from "../../../convex/_generated/api";
import { useSignOut } from "@/components/auth/useSignOut";
import { paths } from "@/lib/paths";
import { useHideOnScroll } from "./useHideOnScroll";

function NavItem({ to, label, icon }: { to: string; label: string; icon: ReactNode }) {
  const active = useMatch({ path: to, end: false }) !== null;
  return (
    <Button asChild variant={active ? "soft" : "ghost"} color={active ? undefined : "gray"} size="2" highContrast={!active}>
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

function initials(name: string | undefined): string {
  const letters = (name ?? "")
    .trim()
    .split(/\s+/)
    .map((word) => word[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return letters || "?";
}

function AccountMenu() {
  const me = useQuery(api.profiles.me);
  const isAdmin = useQuery(api.profiles.isAdmin);
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" radius="full" size="2" aria-label="Account menu">
          <Avatar
            size="2"
            radius="full"
            src={me?.photoUrl ?? undefined}
            fallback={initials(me?.displayName)}
            alt=""
          />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end" size="2">
        {me ? (
          <DropdownMenu.Label>{me.displayName}</DropdownMenu.Label>
        ) : null}
        <DropdownMenu.Item onSelect={() => void navigate(paths.profile)}>
          <PersonIcon aria-hidden="true" /> Profile
        </DropdownMenu.Item>
        {isAdmin ? (
          <DropdownMenu.Item onSelect={() => void navigate(paths.admin)}>
            <GearIcon aria-hidden="true" /> Admin
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={() => void signOut()}>
          <ExitIcon aria-hidden="true" /> Sign Out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
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
            <Flex align="center" gap="2">
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
            </nav>
          </Flex>
          <Flex align="center" justify="end" style={{ minWidth: 40 }}>
            {isLoading ? null : isAuthenticated ? (
              <AccountMenu />
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
