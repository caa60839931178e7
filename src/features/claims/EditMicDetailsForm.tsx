import { Grid } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { MIC_LIMITS } from "@convex/lib/micRules";
import {
  Form,
  FormSelectField as SelectField,
  FormSubmit,
  FormTextAreaField,
  FormTextField,
  MicCostFields,
  MicDayField,
} from "@/components/form";
import { FormActions } from "@/components/FormActions";
import { errorMessage } from "@/lib/convexErrors";
import { editMicDefaults, editMicSchema, NO_SIGNUP, toOwnMicArgs } from "./editMicSchema";
import type { OwnedMic } from "./types";

const SIGNUP_OPTIONS = [
  { value: NO_SIGNUP, label: "Not set" },
  { value: "in_person", label: "In person" },
  { value: "online", label: "Online" },
];

/** 'Edit mic details' for an approved claimant or the creator (descriptive fields only). */
export function EditMicDetailsForm({ item, onDone }: { item: OwnedMic; onDone: () => void }) {
  const update = useMutation(api.claims.updateOwnMic);
  const openMic = item.type === "open_mic";
  return (
    <Form
      schema={editMicSchema}
      defaultValues={editMicDefaults(item)}
      aria-label="Edit mic details"
      onSubmit={async (values) => {
        try {
          await update(toOwnMicArgs(item._id, item.type, values));
          toast.success("Mic details saved");
          onDone();
        } catch (error) {
          console.error("Could not save mic details", error);
          toast.error("Could not save mic details", { description: errorMessage(error, "Please try again.") });
        }
      }}
    >
      <FormTextField name="title" label="Title" size="2" maxLength={MIC_LIMITS.title} />
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        <MicDayField />
        <FormTextField name="startTimeLocal" label="Show time" type="time" size="2" />
        <FormTextField name="listTimeLocal" label="List time" type="time" size="2" />
      </Grid>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {openMic ? <SelectField name="signupMethod" label="Sign-up method" options={SIGNUP_OPTIONS} /> : null}
        <FormTextField name="signupLink" label="Sign-up link" type="url" size="2" />
        <FormTextField name="showLink" label="Show link" type="url" size="2" />
        <FormTextField name="hostName" label="Host name" size="2" maxLength={MIC_LIMITS.hostName} />
        <FormTextField name="performanceMinutes" label="Set length (minutes)" type="number" size="2" />
      </Grid>
      {openMic ? <MicCostFields /> : null}
      <FormTextAreaField name="notes" label="Notes" maxLength={MIC_LIMITS.notes} />
      <FormActions cancel={onDone}>
        <FormSubmit size="2">Save details</FormSubmit>
      </FormActions>
    </Form>
  );
}
