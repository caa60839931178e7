import { Badge, Box, Button, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import type { UsePaginatedQueryResult } from "convex/react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { Link as RouterLink } from "@/lib/router";
import { toast } from "sonner";
import type { Id } from "@convex/_generated/dataModel";
import { EmptyState } from "@/components/EmptyState";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";

/** A heading with a grey line under it, and a badge at the end of the row: a list's (h2) or a card's (h3). */
function TitleRow({
  level,
  title,
  subtitle,
  badge,
}: {
  level: "h2" | "h3";
  title: ReactNode;
  subtitle: ReactNode;
  badge: ReactNode;
}) {
  const list = level === "h2";
  return (
    <Flex justify="between" align="start" gap="3" wrap="wrap">
      <Box>
        <Heading as={level} size={list ? "5" : "3"}>
          {title}
        </Heading>
        <Text as={list ? "p" : "span"} size={list ? "2" : "1"} color="gray">
          {subtitle}
        </Text>
      </Box>
      {badge}
    </Flex>
  );
}

type AdminListProps<T> = {
  title: string;
  subtitle: string;
  /** The count beside the title ('3 pending', '2 open'). */
  badge: ReactNode;
  /** The live list; undefined while it loads. */
  items: T[] | undefined;
  loadingLabel: string;
  empty: { title: string; description: string };
  renderItem: (item: T) => ReactNode;
  /** The 'Load more' button under the cards while the queue has more pages; null once it has none. */
  more?: { loading: boolean; onLoadMore: () => void } | null;
};

/** An admin tab's list (claims, reports): heading with a count, then loading, empty, or one card per item and 'Load more'. */
export function AdminList<T>({
  title,
  subtitle,
  badge,
  items,
  loadingLabel,
  empty,
  renderItem,
  more,
}: AdminListProps<T>) {
  return (
    <Flex direction="column" gap="4">
      <TitleRow level="h2" title={title} subtitle={subtitle} badge={badge} />
      {items === undefined ? (
        <LoadingState variant="skeleton" label={loadingLabel} />
      ) : items.length === 0 ? (
        <EmptyState headingAs="h3" title={empty.title} description={empty.description} />
      ) : (
        <Flex direction="column" gap="3">
          {items.map(renderItem)}
          {more ? (
            <Flex justify="center">
              <Button variant="soft" loading={more.loading} onClick={more.onLoadMore}>
                Load more
              </Button>
            </Flex>
          ) : null}
        </Flex>
      )}
    </Flex>
  );
}

/** Admin queue cards fetched per page (and per 'Load more'). */
export const QUEUE_PAGE_SIZE = 25;

/** A paged queue's 'Load more' (see AdminList's `more`), or null once it is exhausted or still loading. */
export function moreOf(
  queue: Pick<UsePaginatedQueryResult<unknown>, "status" | "loadMore">,
): AdminListProps<unknown>["more"] {
  if (queue.status !== "CanLoadMore" && queue.status !== "LoadingMore") return null;
  return { loading: queue.status === "LoadingMore", onLoadMore: () => queue.loadMore(QUEUE_PAGE_SIZE) };
}

/** The count badge of an admin list. */
export function CountBadge({ color, highContrast, children }: ComponentProps<typeof Badge>) {
  return (
    <Badge size="2" color={color} variant="soft" highContrast={highContrast}>
      {children}
    </Badge>
  );
}

type AdminCardProps = {
  /** The article's accessible name. */
  label: string;
  heading: ReactNode;
  /** The grey line under the heading (when and by whom). */
  subline: ReactNode;
  /** Beside the heading (a status). */
  badge?: ReactNode;
  children: ReactNode;
};

/** One claim or report: an article card with its heading, when it came, a status badge, then its details and buttons. */
export function AdminCard({ label, heading, subline, badge, children }: AdminCardProps) {
  return (
    <Card asChild size="2">
      <article aria-label={label}>
        <Flex direction="column" gap="2">
          <TitleRow level="h3" title={heading} subtitle={subline} badge={badge} />
          {children}
        </Flex>
      </article>
    </Card>
  );
}

/** 'Mic: {title}', linked to the mic's page, or 'deleted mic'. */
export function MicLine({ micId, micTitle }: { micId: Id<"sceneItems">; micTitle: string | null }) {
  return (
    <Text size="2">
      Mic:{" "}
      {micTitle === null ? (
        <Text color="gray">deleted mic</Text>
      ) : (
        <Link asChild>
          <RouterLink to={paths.event(micId)}>{micTitle}</RouterLink>
        </Link>
      )}
    </Text>
  );
}

/**
 * An admin card's buttons: `run` does one with a success toast or, on failure,
 * `failure` in a toast and the console; `button(key, run)` gives a button its
 * click, its spinner while it runs, and waiting while another one runs.
 */
export function useAdminAction<K extends string>(failure: string) {
  const [busy, setBusy] = useState<K | null>(null);
  const run = async (key: K, action: () => Promise<unknown>, success: string) => {
    setBusy(key);
    try {
      await action();
      toast.success(success);
    } catch (error) {
      console.error(failure, error);
      toast.error(failure);
    } finally {
      setBusy(null);
    }
  };
  const button = (key: K, go: () => Promise<void>) => ({
    onClick: () => void go(),
    loading: busy === key,
    disabled: busy !== null,
  });
  return { busy, run, button };
}
