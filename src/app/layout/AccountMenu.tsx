import { ExitIcon, GearIcon, PersonIcon } from "@radix-ui/react-icons";
import { Avatar, DropdownMenu, IconButton } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { useNavigate } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { useSignOut } from "@/components/auth/useSignOut";
import { initials } from "@/lib/format";
import { paths } from "@/lib/paths";

/** The avatar menu of a signed-in comedian: Profile, Admin (admins only), Sign Out. */
export default function AccountMenu() {
  const me = useQuery(api.profiles.me);
  const isAdmin = useQuery(api.profiles.isAdmin);
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" radius="full" size="2" aria-label="Account menu">
          <Avatar size="2" radius="full" src={me?.photoUrl ?? undefined} fallback={initials(me?.displayName)} alt="" />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end" size="2">
        {me ? <DropdownMenu.Label>{me.displayName}</DropdownMenu.Label> : null}
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
