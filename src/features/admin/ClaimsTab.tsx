import { CheckCircledIcon, CheckIcon, ClockIcon, Cross2Icon, CrossCircledIcon, ResetIcon } from "@radix-ui/react-icons";
import { Badge, Blockquote, Button, Flex, Text } from "@radix-ui/themes";
import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "../../../convex/_generated/api";
import { AdminCard, AdminList, CountBadge, MicLine, moreOf, QUEUE_PAGE_SIZE, useAdminAction } from "./AdminListParts";
import { claimLabel, queueCount, reviewedDate, submittedDate } from "./adminText";
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
  const review = useMutation(api.claims.review);
  const { run, button } = useAdminAction<"approved" | "denied">("Failed to update claim status");
  const status = STATUS[claim.status];
  const decide = (decision: "approved" | "denied") =>
    run(decision, () => review({ id: claim._id, status: decision }), `Claim ${decision} successfully`);
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
          <Button color="green" {...button("approved", () => decide("approved"))}>
            <CheckIcon aria-hidden="true" />
            Approve
          </Button>
          <Button color="red" variant="soft" {...button("denied", () => decide("denied"))}>
            <Cross2Icon aria-hidden="true" />
            Deny
          </Button>
        </Flex>
      ) : (
        <Flex direction="column" gap="2" align="start">
          {claim.reviewedAt !== undefined ? (
            <Text size="1" color="gray">
              Reviewed {reviewedDate(claim.reviewedAt)}
            </Text>
          ) : null}
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

/**
 * Every claim, live, a page at a time ('Load more'): the pending ones first,
 * newest first, with Approve and Deny, then the reviewed ones, newest first,
 * with Revoke once approved. A reviewed claim shows only once every pending one has.
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
      items={loading ? undefined : pendingDone ? [...pending.results, ...reviewed.results] : pending.results}
      loadingLabel="Loading claims…"
      empty={{
        title: "No claims submitted yet.",
        description: "Users can claim venue ownership to manage their mic details.",
      }}
      renderItem={(claim) => <ClaimCard key={claim._id} claim={claim} />}
      more={pendingDone ? moreOf(reviewed) : moreOf(pending)}
    />
  );
}
