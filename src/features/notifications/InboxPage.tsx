import { BellIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { formatDistanceToNowStrict } from "date-fns";
import { useState, type CSSProperties } from "react";
import { Link as RouterLink, useNavigate } from "@/lib/router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { EmptyState } from "@/components/EmptyState";
import { LoadingState } from "@/components/LoadingState";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";
import { unreadText } from "./NotificationBell";

const PAGE = 20;
const listStyle: CSSProperties = { listStyle: "none", margin: 0, padding: 0 };

type Entry = {
  _id: Id<"notifications">;
  _creationTime: number;
  title: string;
  body: string;
  url: string;
  read: boolean;
};

function InboxEntry({ entry }: { entry: Entry }) {
  const markRead = useMutation(api.notifications.markRead);
  const navigate = useNavigate();
  const open = () => {
    // The page opens at once; marking read follows (the bell updates when it lands).
    if (!entry.read) {
      markRead({ id: entry._id }).catch((err: unknown) => {
        console.error(err);
      });
    }
    void navigate(entry.url);
  };
  return (
    <li data-read={entry.read ? "true" : "false"}>
      <Card asChild size="2" variant={entry.read ? "surface" : "classic"}>
        <RouterLink
          to={entry.url}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            open();
          }}
          style={{ textDecoration: "none", color: "inherit", display: "block", minHeight: 44 }}
        >
          <Flex direction="column" gap="1">
            <Flex justify="between" align="start" gap="2">
              <Text size="3" weight={entry.read ? "regular" : "bold"}>
                {entry.title}
              </Text>
              {entry.read ? null : (
                <Badge color="red" variant="solid" radius="full">
                  New
                </Badge>
              )}
            </Flex>
            {entry.body ? (
              <Text size="2" color="gray">
                {entry.body}
              </Text>
            ) : null}
            <Text size="1" color="gray">
              <time dateTime={new Date(entry._creationTime).toISOString()}>
                {formatDistanceToNowStrict(entry._creationTime, { addSuffix: true })}
              </time>
            </Text>
          </Flex>
        </RouterLink>
      </Card>
    </li>
  );
}

function MarkAllRead({ unread }: { unread: number }) {
  const markAllRead = useMutation(api.notifications.markAllRead);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      // Each call marks a batch; the server says when some remain.
      while (await markAllRead({})) {
        /* next batch */
      }
    } catch (err) {
      toast.error(errorMessage(err, "Could not mark your notifications read. Try again."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="soft" size="3" disabled={unread === 0} loading={busy} onClick={() => void run()}>
      Mark all read
    </Button>
  );
}

/** /notifications: every notice the comedian got, newest first, each opening its page. */
export function InboxPage() {
  const unread = useQuery(api.notifications.unreadCount);
  const { results, status, loadMore } = usePaginatedQuery(api.notifications.inboxPage, {}, { initialNumItems: PAGE });
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h1" size="8">
            Notifications
          </Heading>
          <Text size="2" color="gray" aria-live="polite">
            {unread === undefined ? "\u00a0" : unread === 0 ? "All caught up" : `${unreadText(unread)} unread`}
          </Text>
        </Flex>
        <MarkAllRead unread={unread ?? 0} />
      </Flex>
      {status === "LoadingFirstPage" ? (
        <LoadingState variant="skeleton" label="Loading your notifications" rows={4} />
      ) : results.length === 0 ? (
        <EmptyState
          icon={<BellIcon width={28} height={28} />}
          title="No notifications yet"
          description="When a list opens, a lottery is drawn or you're on deck, it shows up here."
          action={
            <Button asChild variant="soft">
              <RouterLink to={paths.profile}>Choose what you hear about</RouterLink>
            </Button>
          }
        />
      ) : (
        <Flex direction="column" gap="3">
          <Flex direction="column" gap="2" asChild>
            <ul style={listStyle} aria-label="Your notifications">
              {results.map((entry) => (
                <InboxEntry key={entry._id} entry={entry} />
              ))}
            </ul>
          </Flex>
          {status === "CanLoadMore" || status === "LoadingMore" ? (
            <Flex justify="center">
              <Button variant="soft" loading={status === "LoadingMore"} onClick={() => loadMore(PAGE)}>
                Load more
              </Button>
            </Flex>
          ) : null}
        </Flex>
      )}
    </Flex>
  );
}
