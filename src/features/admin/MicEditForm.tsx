import { Grid } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useWatch } from "react-hook-form";
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
import type { AdminMic } from "./types";
import { MIC_TYPE_OPTIONS } from "./adminText";
import { micEditDefaults, micEditSchema, toUpdateArgs } from "./micEditSchema";

const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
];

/** Cost inputs, shown for open mics only. */
function OpenMicCostFields() {
  const type = useWatch({ name: "type" }) as string;
  return type === "open_mic" ? <MicCostFields /> : null;
}

/** A mic card's edit mode: save ('Mic updated successfully') or cancel back to view mode. */
export function MicEditForm({ mic, onDone }: { mic: AdminMic; onDone: (saved: boolean) => void }) {
  const updateMic = useMutation(api.admin.updateMic);
  return (
    <Form
      schema={micEditSchema}
      defaultValues={micEditDefaults(mic)}
      aria-label={`Edit ${mic.title}`}
      onSubmit={async (values) => {
        try {
          await updateMic(toUpdateArgs(mic._id, values));
          toast.success("Mic updated successfully");
          onDone(true);
        } catch (error) {
          console.error("Failed to update mic", error);
          toast.error("Failed to update mic");
        }
      }}
    >
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        <FormTextField name="title" label="Title" size="2" maxLength={MIC_LIMITS.title} />
        <FormTextField name="venueName" label="Venue" size="2" maxLength={MIC_LIMITS.venueName} />
        <FormTextField name="city" label="City" size="2" maxLength={MIC_LIMITS.city} />
      </Grid>
      <Grid columns={{ initial: "2", sm: "4" }} gap="3">
        <SelectField name="type" label="Type" options={MIC_TYPE_OPTIONS} />
        <MicDayField />
        <FormTextField name="startTimeLocal" label="Time" type="time" size="2" />
        <SelectField name="status" label="Status" options={STATUS_OPTIONS} />
      </Grid>
      <OpenMicCostFields />
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        <FormTextField name="signupLink" label="Sign-up link" type="url" size="2" />
        <FormTextField name="showLink" label="Show link" type="url" size="2" />
        <FormTextField name="hostName" label="Host name" size="2" />
      </Grid>
      <FormTextAreaField name="notes" label="Notes" maxLength={1000} />
      <FormActions cancel={() => onDone(false)}>
        <FormSubmit size="2">Save</FormSubmit>
      </FormActions>
    </Form>
  );
}
