import { Button, Flex, Grid } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useWatch } from "react-hook-form";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import { DAY_NAMES } from "../../../convex/lib/time";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import type { AdminMic } from "./types";
import { COST_TYPE_OPTIONS, MIC_TYPE_OPTIONS } from "./adminText";
import { micEditDefaults, micEditSchema, NO_DAY, toUpdateArgs } from "./micEditSchema";
import { FormSelectField as SelectField } from "@/components/form";

const DAY_OPTIONS = [
  { value: NO_DAY, label: "No day" },
  ...DAY_NAMES.map((name, i) => ({ value: String(i), label: name })),
];
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
];

/** Cost inputs, shown for open mics only; the amounts follow the cost type. */
function CostFields() {
  const type = useWatch({ name: "type" }) as string;
  const costType = useWatch({ name: "costType" }) as string;
  if (type !== "open_mic") return null;
  return (
    <Grid columns={{ initial: "1", sm: "3" }} gap="3">
      <SelectField name="costType" label="Cost" options={COST_TYPE_OPTIONS} />
      {costType === "cover" || costType === "combo" ? (
        <FormTextField name="coverAmount" label="Mic fee ($)" type="number" size="2" />
      ) : null}
      {costType === "minimum" || costType === "combo" ? (
        <FormTextField name="minimumItems" label="Minimum items" type="number" size="2" />
      ) : null}
    </Grid>
  );
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
        <FormTextField name="title" label="Title" size="2" />
        <FormTextField name="venueName" label="Venue" size="2" />
        <FormTextField name="city" label="City" size="2" />
      </Grid>
      <Grid columns={{ initial: "2", sm: "4" }} gap="3">
        <SelectField name="type" label="Type" options={MIC_TYPE_OPTIONS} />
        <SelectField name="dayOfWeek" label="Day" options={DAY_OPTIONS} />
        <FormTextField name="startTimeLocal" label="Time" type="time" size="2" />
        <SelectField name="status" label="Status" options={STATUS_OPTIONS} />
      </Grid>
      <CostFields />
      <Flex gap="2" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <FormSubmit size="2">Save</FormSubmit>
      </Flex>
    </Form>
  );
}
