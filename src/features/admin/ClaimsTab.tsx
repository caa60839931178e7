import { CheckCircledIcon, CheckIcon, ClockIcon, Cross2Icon, CrossCircledIcon, ResetIcon } from "@radix-ui/react-icons";
import { Badge, Blockquote, Box, Button, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import { EmptyState } from "@/components/EmptyState";
import { LoadingState } from "@/components/LoadingState";
import { paths } from "@/lib/paths";
import { claimLabel, reviewedDate, submittedDate } from "./adminText";
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
  const [busy, setBusy] = useState<"approved" | "denied" | null>(null);
  const status = STATUS[claim.status];
  const decide = async (decision: "approved" | "denied") => {
    setBusy(decision);
    try {
      await review({ id: claim._id, status: decision });
      toast.success(`Claim ${decision} successfully`);
    } catch (error) {
      console.error("Failed to update claim status", error);
      toast.error("Failed to update claim status");
    } finally {
      setBusy(null);
    }
  };
  const name = claimLabel(claim.number);
  return (
    <Card asChild size="2">
      <article aria-label={name}>
        <Flex direction="column" gap="2">
          <Flex justify="between" align="start" gap="3" wrap="wrap">
            <Box>
              <Heading as="h3" size="3">
                {name}
              </Heading>
              <Text size="1" color="gray">
                Submitted {submittedDate(claim._creationTime)}
              </Text>
            </Box>
            <Badge color={status.color} variant="soft" size="2" highContrast={claim.status === "pending"}>
              <status.Icon aria-hidden="true" />
              {status.label}
            </Badge>
          </Flex>
          <Text size="2">
            Mic:{" "}
            {claim.micTitle === null ? (
              <Text color="gray">deleted mic</Text>
            ) : (
              <Link asChild>
                <RouterLink to={paths.event(claim.micId)}>{claim.micTitle}</RouterLink>
              </Link>
            )}
          </Text>
          <Text size="2">Claimant: {claim.claimantName}</Text>
          {claim.message ? <Blockquote size="2">{claim.message}</Blockquote> : null}
          {claim.status === "pending" ? (
            <Flex gap="2">
              <Button
                color="green"
                onClick={() => void decide("approved")}
                loading={busy === "approved"}
                disabled={busy !== null}
              >
                <CheckIcon aria-hidden="true" />
                Approve
              </Button>
              <Button
                color="red"
                variant="soft"
                onClick={() => void decide("denied")}
                loading={busy === "denied"}
                disabled={busy !== null}
              >
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
        </Flex>
      </article>
    </Card>
  );
}

/** Every claim, live, newest first, with Approve and Deny while pending and Revoke once approved. */
export function ClaimsTab() {
  const claims = useQuery(api.claims.list, {});
  const pending = claims?.filter((c) => c.status === "pending").length ?? 0;
  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <Box>
          <Heading as="h2" size="5">
            Mic Claims
          </Heading>
          <Text as="p" size="2" color="gray">
            Review and manage venue ownership claims
          </Text>
        </Box>
        <Badge size="2" color="amber" variant="soft" highContrast>
          {`${pending} pending`}
        </Badge>
      </Flex>
      {claims === undefined ? (
        <LoadingState variant="skeleton" label="Loading claims…" />
      ) : claims.length === 0 ? (
        <EmptyState
          headingAs="h3"
          title="No claims submitted yet."
          description="Users can claim venue ownership to manage their mic details."
        />
      ) : (
        <Flex direction="column" gap="3">
          {claims.map((claim) => (
            <ClaimCard key={claim._id} claim={claim} />
          ))}
        </Flex>
      )}
    </Flex>
  );
}
