import { BellIcon } from "@radix-ui/react-icons";
import { IconButton } from "@radix-ui/themes";
import { useQuery } from "convex/react";
import { Link as RouterLink, useMatch } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { INBOX_PAGE } from "@convex/lib/notificationRules";
import { paths } from "@/lib/paths";

/** "3", or "50+" past what the server counts. */
export function unreadText(count: number): string {
  return count > INBOX_PAGE ? `${INBOX_PAGE}+` : String(count);
}

/** The bell in the top bar: how many notifications are unread, live; opens the inbox. */
export default function NotificationBell() {
  const unread = useQuery(api.notifications.unreadCount) ?? 0;
  const active = useMatch(paths.notifications) !== null;
  const label = unread === 0 ? "Notifications" : `Notifications, ${unreadText(unread)} unread`;
  return (
    <IconButton
      asChild
      variant={active ? "soft" : "ghost"}
      color={active ? undefined : "gray"}
      highContrast={!active}
      radius="full"
      style={{ width: 44, height: 44, position: "relative", margin: 0 }}
    >
      <RouterLink to={paths.notifications} aria-label={label} aria-current={active ? "page" : undefined}>
        <BellIcon width={22} height={22} aria-hidden="true" />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            style={{
              position: "absolute",
              top: 4,
              right: 2,
              minWidth: 18,
              height: 18,
              padding: "0 4px",
              borderRadius: 9,
              // Dark red on light, light red on dark: readable at 11 px in both themes.
              background: "var(--red-11)",
              color: "var(--gray-1)",
              fontSize: 11,
              fontWeight: 700,
              lineHeight: "18px",
              textAlign: "center",
            }}
          >
            {unreadText(unread)}
          </span>
        ) : null}
      </RouterLink>
    </IconButton>
  );
}
