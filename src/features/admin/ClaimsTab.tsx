import { CheckCircledIcon, ClockIcon, CrossCircledIcon, InfoCircledIcon, ResetIcon } from "@radix-ui/react-icons";
import { Badge, Blockquote, Callout, Flex, Text } from "@radix-ui/themes";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { AdminCard, AdminList, CountBadge, MicLine, moreOf, QUEUE_PAGE_SIZE } from "./AdminListParts";
import { claimLabel, pendingForMicText, queueCount, reviewedDate, submittedDate } from "./adminText";
import { DenyMootClaimsButton, ReviewClaimButton } from "./ClaimReviewDialogs";
import { ConfirmActionButton } from "./ConfirmActionButton";
import type { AdminClaim } from "./types";

const STATUS = {
  pending: { label: "Pending", color: "amber", Icon: ClockIcon },
  approved: { label: "Approved", color: "green", Icon: CheckCircledIcon },
  denied: { label: "Denied", color: "red", Icon: CrossCircledIcon },
  revoked: { label: "Revoked", color: "gray", Icon: ResetIcon },
} as const;

/** Takes back an approved claim, after a confirmation. */
function RevokeClaimButton({ claim, name }: { claim: AdminClaim; name: string }) {
  const revoke = useMutation(api.claims.revoke);
  const mic = claim.micTitle ?? "this mic";
  return (
    <ConfirmActionButton
      label="Revoke"
      ariaLabel={`Revoke ${name}`}
      icon={<ResetIcon aria-hidden="true" />}
      title="Revoke claim"
      description={`Revoke ${claim.claimantName}'s claim on "${mic}"? They will no longer be able to manage this mic.`}
      action={() => revoke({ id: claim._id })}
      successMessage="Claim revoked successfully"
      failureMessage="Failed to revoke claim"
    />
  );
}

function ClaimCard({ claim }: { claim: AdminClaim }) {
  const status = STATUS[claim.status];
  const name = claimLabel(claim.number);
  return (
    <AdminCard
      label={name}
      heading={name}
      subline={<>Submitted {submittedDate(claim._creationTime)}</>}
      badge={
        <Badge color={status.color} variant="soft" size="2" highContrast={claim.status === "pending"}>
          <status.Icon aria-hidden="true" />
          {status.label}
        </Badge>
      }
    >
      <MicLine micId={claim.micId} micTitle={claim.micTitle} />
      <Text size="2">Claimant: {claim.claimantName}</Text>
      {claim.message ? <Blockquote size="2">{claim.message}</Blockquote> : null}
      {claim.status === "pending" ? (
        <Flex gap="2">
          {/* While the mic has an approved host, another claim cannot be approved (revoke first). */}
          {claim.micHostName === null ? <ReviewClaimButton claim={claim} decision="approved" /> : null}
          <ReviewClaimButton claim={claim} decision="denied" />
        </Flex>
      ) : (
        <Flex direction="column" gap="2" align="start">
          {claim.reviewedAt !== undefined ? (
            <Text size="1" color="gray">
              Reviewed {reviewedDate(claim.reviewedAt)}
            </Text>
          ) : null}
          {claim.reviewReason ? <Text size="2">Reason: {claim.reviewReason}</Text> : null}
          {claim.revokedAt !== undefined ? (
            <Text size="1" color="gray">
              Revoked {reviewedDate(claim.revokedAt)}
            </Text>
          ) : null}
          {claim.status === "approved" ? <RevokeClaimButton claim={claim} name={name} /> : null}
        </Flex>
      )}
    </AdminCard>
  );
}

type ClaimGroup = { key: string; pending: boolean; claims: AdminClaim[] };

/** The loaded claims of each queue grouped by mic, in the order each mic first appears. */
export function groupByMic(claims: AdminClaim[]): ClaimGroup[] {
  const groups = new Map<string, ClaimGroup>();
  for (const claim of claims) {
    const pending = claim.status === "pending";
    const key = `${pending ? "pending" : "reviewed"}:${claim.micId}`;
    const group = groups.get(key) ?? { key, pending, claims: [] };
    group.claims.push(claim);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The claims on one mic: how many wait, and once its host is approved, that the rest are moot. */
function MicClaims({ group }: { group: ClaimGroup }) {
  const first = group.claims[0];
  const micTitle = first.micTitle ?? "a deleted mic";
  const waiting = group.pending ? pendingForMicText(first.pendingForMic) : null;
  const host = group.pending ? first.micHostName : null;
  return (
    <Flex
      direction="column"
      gap="2"
      role="group"
      aria-label={`${group.pending ? "Pending claims" : "Reviewed claims"} for ${micTitle}`}
    >
      {host !== null ? (
        <Callout.Root color="amber" size="1">
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>
            {host} is the approved host of {micTitle}, so{" "}
            {first.pendingForMic === 1 ? "this claim is" : `these ${first.pendingForMic} claims are`} moot.
          </Callout.Text>
          <Flex>
            <DenyMootClaimsButton micId={first.micId} micTitle={micTitle} count={first.pendingForMic} />
          </Flex>
        </Callout.Root>
      ) : waiting !== null ? (
        <Text size="2" weight="medium">
          {waiting}
        </Text>
      ) : null}
      {group.claims.map((claim) => (
        <ClaimCard key={claim._id} claim={claim} />
      ))}
    </Flex>
  );
}

/**
 * Every claim, live, a page at a time ('Load more'), grouped by mic: the
 * pending ones first, newest first, with Approve and Deny (each with an
 * optional reason), then the reviewed ones, newest first, with Revoke once
 * approved. A reviewed claim shows only once every pending one has.
 */
export function ClaimsTab() {
  const pending = usePaginatedQuery(api.claims.list, { queue: "pending" }, { initialNumItems: QUEUE_PAGE_SIZE });
  const reviewed = usePaginatedQuery(api.claims.list, { queue: "reviewed" }, { initialNumItems: QUEUE_PAGE_SIZE });
  const counts = useQuery(api.admin.queueCounts, {});
  const pendingDone = pending.status === "Exhausted";
  const loading = pending.status === "LoadingFirstPage" || (pendingDone && reviewed.status === "LoadingFirstPage");
  return (
    <AdminList
      title="Mic Claims"
      subtitle="Review and manage venue ownership claims"
      badge={
        <CountBadge color="amber" highContrast>
          {`${queueCount(counts?.pendingClaims, counts?.cap ?? 0)} pending`}
        </CountBadge>
      }
      items={
        loading ? undefined : groupByMic(pendingDone ? [...pending.results, ...reviewed.results] : pending.results)
      }
      loadingLabel="Loading claims…"
      empty={{
        title: "No claims submitted yet.",
        description: "Users can claim venue ownership to manage their mic details.",
      }}
      renderItem={(group) => <MicClaims key={group.key} group={group} />}
      more={pendingDone ? moreOf(reviewed) : moreOf(pending)}
    />
  );
}
