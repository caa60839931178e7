import { Badge, Box, Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { isConfirmedTonight } from "@/lib/nights";
import { CancelNightForm } from "./CancelNightForm";
import { ConfirmTonight } from "./ConfirmTonight";
import { ClaimDialog } from "./ClaimDialog";
import { EditMicDetailsForm } from "./EditMicDetailsForm";
import { cancellationNotices, cancelledDateLabel } from "./ownerText";
import { ReportDialog } from "./ReportDialog";
import type { OwnedMic } from "./types";

/** The current time, refreshed every minute (queries never read the clock). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** 'Host confirmed tonight', for every visitor. */
function ConfirmedTonightNotice({ item, nowMs }: { item: OwnedMic; nowMs: number }) {
  if (!isConfirmedTonight(item, nowMs)) return null;
  return (
    <Callout.Root color="green" role="status" highContrast>
      <Callout.Text>
        <Text as="span" weight="bold" data-testid="night-status">
          Host confirmed tonight
        </Text>
      </Callout.Text>
    </Callout.Root>
  );
}

/** 'Cancelled tonight' and 'Cancelled on {date}', for every visitor. */
export function CancelledNights({ item, nowMs }: { item: OwnedMic; nowMs: number }) {
  const { tonight, upcoming } = cancellationNotices(item.cancelledDates, item.timeZone, nowMs);
  if (!tonight && upcoming.length === 0) return null;
  return (
    <Callout.Root color="orange" role="status" highContrast>
      <Callout.Text>
        {tonight ? (
          <Text as="span" weight="bold" style={{ display: "block" }} data-testid="night-status">
            Cancelled tonight
          </Text>
        ) : null}
        {upcoming.map((d) => (
          <Text as="span" key={d} style={{ display: "block" }}>
            Cancelled on {cancelledDateLabel(d)}
          </Text>
        ))}
      </Callout.Text>
    </Callout.Root>
  );
}

function OwnerPanel({ item, nowMs }: { item: OwnedMic; nowMs: number }) {
  const state = useQuery(api.claims.ownerState, { micId: item._id });
  const [editing, setEditing] = useState(false);
  if (state === undefined) return null;
  const latest = state.claims[0];
  const pending = latest?.status === "pending";
  // Editing: the approved host, an admin, or the creator until a claim is approved;
  // nights: the approved host or an admin only.
  const { canManage: canEdit, canHost } = state;
  return (
    <Card size="3">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          {canEdit || canHost ? "Manage this mic" : "Run this mic?"}
        </Heading>
        {!canHost && latest ? (
          <Flex gap="2" align="center">
            <Text size="2">{latest.number === undefined ? "Your claim:" : `Your claim #${latest.number}:`}</Text>
            <Badge
              color={pending ? "amber" : latest.status === "revoked" ? "gray" : "red"}
              variant="soft"
              highContrast={pending}
            >
              {pending ? "Pending review" : latest.status === "revoked" ? "Revoked" : "Denied"}
            </Badge>
          </Flex>
        ) : null}
        {latest?.reviewReason && (latest.status === "approved" || latest.status === "denied") ? (
          <Text size="2">
            The admins said: <Text as="span">{latest.reviewReason}</Text>
          </Text>
        ) : null}
        {canEdit && !canHost ? (
          <Text size="2" color="gray">
            You added this mic, so you can edit it until an admin approves its host. Claim it to run its nights.
          </Text>
        ) : null}
        {canHost ? <ConfirmTonight item={item} nowMs={nowMs} /> : null}
        {canEdit ? (
          editing ? (
            <EditMicDetailsForm item={item} onDone={() => setEditing(false)} />
          ) : (
            <Box>
              <Button onClick={() => setEditing(true)}>Edit mic details</Button>
            </Box>
          )
        ) : null}
        {canHost ? (
          <Flex direction="column" gap="2">
            <Heading as="h3" size="3">
              Cancel a night
            </Heading>
            <CancelNightForm item={item} nowMs={nowMs} />
          </Flex>
        ) : null}
        <Flex gap="3" wrap="wrap">
          {!canHost && !pending ? <ClaimDialog micId={item._id} /> : null}
          <ReportDialog micId={item._id} />
        </Flex>
      </Flex>
    </Card>
  );
}

function OwnerTools({ id }: { id: string }) {
  const item = useQuery(api.scene.get, { id });
  const { isAuthenticated } = useConvexAuth();
  const nowMs = useMinuteClock();
  if (!item) return null;
  return (
    <Flex direction="column" gap="4">
      <ConfirmedTonightNotice item={item} nowMs={nowMs} />
      <CancelledNights item={item} nowMs={nowMs} />
      {isAuthenticated ? <OwnerPanel item={item} nowMs={nowMs} /> : null}
    </Flex>
  );
}

/**
 * The event page's section for cancelled nights (everyone) and, signed in,
 * claiming the mic, reporting a problem, editing its details (its approved
 * claimant, an admin, or its creator until a claim is approved) and confirming
 * or cancelling single nights (its approved claimant or an admin).
 */
export function EventOwnerTools({ id }: { id: string | undefined }) {
  if (!id) return null;
  return (
    <ErrorBoundary key={id} fallback={null}>
      <OwnerTools id={id} />
    </ErrorBoundary>
  );
}
