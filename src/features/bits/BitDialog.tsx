import { Button } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  BIT_STATUS_LABELS,
  BIT_STATUSES,
  MAX_BIT_NOTES_LENGTH,
  MAX_BIT_TITLE_LENGTH,
  type BitStatus,
} from "@convex/lib/bitRules";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSelectField, FormSubmit, FormTextAreaField, FormTextField } from "@/components/form";
import { errorMessage } from "@/lib/convexErrors";
import { toast } from "@/lib/toast";
import { bitDefaults, bitSchema } from "./bitSchema";

const STATUS_OPTIONS = BIT_STATUSES.map((value) => ({ value, label: BIT_STATUS_LABELS[value] }));

export type EditableBit = {
  _id: Id<"bits">;
  title: string;
  notes: string | null;
  tags: string[];
  seconds: number | null;
  status: BitStatus;
};

/** Creates a bit, or edits `bit` when given: title, premise/notes, tags, estimated length and status. */
export function BitDialog({ bit, trigger }: { bit?: EditableBit; trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  const create = useMutation(api.bits.create);
  const update = useMutation(api.bits.update);
  return (
    <DialogShell
      trigger={trigger}
      title={bit ? "Edit bit" : "New bit"}
      description={bit ? "Change what the bit is and where it stands." : "A joke or a chunk you do on stage."}
      maxWidth="520px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={bitSchema}
        defaultValues={bitDefaults(bit)}
        aria-label={bit ? "Edit bit" : "New bit"}
        onSubmit={async (values) => {
          try {
            if (bit) await update({ id: bit._id, ...values });
            else await create(values);
            toast.success(bit ? "Bit saved" : "Bit added");
            setOpen(false);
          } catch (err) {
            toast.error(errorMessage(err, "Could not save the bit. Please try again."));
          }
        }}
      >
        <FormTextField name="title" label="Title" required maxLength={MAX_BIT_TITLE_LENGTH} />
        <FormTextAreaField name="notes" label="Premise and notes" rows={4} maxLength={MAX_BIT_NOTES_LENGTH} />
        <FormTextField name="tags" label="Tags" hint="Separate tags with commas" placeholder="travel, crowd work" />
        <FormTextField
          name="length"
          label="Estimated length"
          hint="Seconds (90) or minutes:seconds (1:30)"
          placeholder="1:30"
          autoComplete="off"
        />
        <FormSelectField name="status" label="Status" options={STATUS_OPTIONS} />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit>{bit ? "Save bit" : "Add bit"}</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

/** The button that opens a new bit's dialog. */
export function NewBitButton() {
  return <BitDialog trigger={<Button>New bit</Button>} />;
}
