import { CheckIcon, Cross2Icon } from "@radix-ui/react-icons";
import { Button } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MAX_REVIEW_REASON_LENGTH } from "@convex/lib/claimRules";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextAreaField } from "@/components/form";
import { errorMessage } from "@/lib/convexErrors";
import { claimLabel } from "./adminText";
import { MOOT_REASON, reasonArg, reviewSchema, type ReviewValues } from "./reviewSchema";
import type { AdminClaim } from "./types";

const REASON_LABEL = "Reason (optional, the claimant sees it)";

/** A dialog with one optional reason and a confirming button; closes once `save` resolves true. */
function ReasonDialog({
  trigger,
  title,
  description,
  submitLabel,
  submitColor,
  defaultReason = "",
  save,
}: {
  trigger: ReactNode;
  title: string;
  description: string;
  submitLabel: string;
  submitColor: "green" | "red";
  defaultReason?: string;
  save: (values: ReviewValues) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DialogShell
      trigger={trigger}
      title={title}
      description={description}
      maxWidth="460px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={reviewSchema}
        defaultValues={{ reason: defaultReason }}
        onSubmit={async (values) => {
          if (await save(values)) setOpen(false);
        }}
        aria-label={title}
      >
        <FormTextAreaField name="reason" label={REASON_LABEL} rows={3} maxLength={MAX_REVIEW_REASON_LENGTH} />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit size="2" color={submitColor}>
            {submitLabel}
          </FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

/** Runs a claim mutation with a success toast, or the server's message in an error toast; resolves whether it went through. */
async function attempt<T>(action: () => Promise<T>, success: string | ((result: T) => string)): Promise<boolean> {
  try {
    const result = await action();
    toast.success(typeof success === "string" ? success : success(result));
    return true;
  } catch (error) {
    console.error("Failed to update claim status", error);
    toast.error(errorMessage(error, "Failed to update claim status"));
    return false;
  }
}

/** Approve or Deny on a pending claim, each asking for an optional reason first. */
export function ReviewClaimButton({ claim, decision }: { claim: AdminClaim; decision: "approved" | "denied" }) {
  const review = useMutation(api.claims.review);
  const approve = decision === "approved";
  const name = claimLabel(claim.number);
  const mic = claim.micTitle ?? "a deleted mic";
  return (
    <ReasonDialog
      trigger={
        <Button color={approve ? "green" : "red"} variant={approve ? "solid" : "soft"}>
          {approve ? <CheckIcon aria-hidden="true" /> : <Cross2Icon aria-hidden="true" />}
          {approve ? "Approve" : "Deny"}
        </Button>
      }
      title={`${approve ? "Approve" : "Deny"} ${name}`}
      description={
        approve
          ? `${claim.claimantName} becomes the host of "${mic}" and is listed as its host.`
          : `${claim.claimantName}'s claim on "${mic}" is turned down.`
      }
      submitLabel={approve ? "Approve" : "Deny"}
      submitColor={approve ? "green" : "red"}
      save={(values) =>
        attempt(
          () => review({ id: claim._id, status: decision, ...reasonArg(values) }),
          `Claim ${decision} successfully`,
        )
      }
    />
  );
}

/** Denies, with one reason, every claim still pending on a mic that has an approved host. */
export function DenyMootClaimsButton({
  micId,
  micTitle,
  count,
}: {
  micId: Id<"sceneItems">;
  micTitle: string;
  count: number;
}) {
  const denyMoot = useMutation(api.claims.denyMoot);
  const claims = count === 1 ? "the other claim" : `the other ${count} claims`;
  return (
    <ReasonDialog
      trigger={
        <Button color="red" variant="soft" aria-label={`Deny ${claims} for ${micTitle}`}>
          <Cross2Icon aria-hidden="true" />
          {count === 1 ? "Deny the other claim" : `Deny the other ${count}`}
        </Button>
      }
      title="Deny the moot claims"
      description={`Deny ${claims} for "${micTitle}". Each claimant sees the reason.`}
      submitLabel={count === 1 ? "Deny 1 claim" : `Deny ${count} claims`}
      submitColor="red"
      defaultReason={MOOT_REASON}
      save={(values) =>
        attempt(
          () => denyMoot({ micId, ...reasonArg(values) }),
          (n) => (n === 1 ? "1 claim denied" : `${n} claims denied`),
        )
      }
    />
  );
}
