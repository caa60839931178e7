import { Button, Flex, Grid, Text, TextArea } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import { DAY_NAMES } from "../../../convex/lib/time";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { errorMessage } from "@/lib/convexErrors";
import { editMicDefaults, editMicSchema, NO_DAY, NO_SIGNUP, toOwnMicArgs } from "./editMicSchema";
import { FormSelectField as SelectField } from "@/components/form";
import type { OwnedMic } from "./types";

const DAY_OPTIONS = [
  { value: NO_DAY, label: "No day" },
  ...DAY_NAMES.map((name, i) => ({ value: String(i), label: name })),
];
const SIGNUP_OPTIONS = [
  { value: NO_SIGNUP, label: "Not set" },
  { value: "in_person", label: "In person" },
  { value: "online", label: "Online" },
];
const COST_OPTIONS = [
  { value: "free", label: "Free" },
  { value: "cover", label: "Cover (mic fee)" },
  { value: "minimum", label: "Drink minimum" },
  { value: "combo", label: "Fee + minimum" },
];

function NotesField() {
  const id = useId();
  const { register } = useFormContext();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        Notes
      </Text>
      <TextArea id={id} maxLength={1000} {...register("notes")} />
    </Flex>
  );
}

function CostFields() {
  const costType = useWatch({ name: "costType" }) as string;
  return (
    <Grid columns={{ initial: "1", sm: "3" }} gap="3">
      <SelectField name="costType" label="Cost" options={COST_OPTIONS} />
      {costType === "cover" || costType === "combo" ? (
        <FormTextField name="coverAmount" label="Mic fee ($)" type="number" size="2" />
      ) : null}
      {costType === "minimum" || costType === "combo" ? (
        <FormTextField name="minimumItems" label="Minimum items" type="number" size="2" />
      ) : null}
    </Grid>
  );
}

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
      <FormTextField name="title" label="Title" size="2" />
      <Grid columns={{ initial: "1", sm: "3" }} gap="3">
        <SelectField name="dayOfWeek" label="Day" options={DAY_OPTIONS} />
        <FormTextField name="startTimeLocal" label="Show time" type="time" size="2" />
        <FormTextField name="listTimeLocal" label="List time" type="time" size="2" />
      </Grid>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3">
        {openMic ? <SelectField name="signupMethod" label="Sign-up method" options={SIGNUP_OPTIONS} /> : null}
        <FormTextField name="signupLink" label="Sign-up link" type="url" size="2" />
        <FormTextField name="showLink" label="Show link" type="url" size="2" />
        <FormTextField name="hostName" label="Host name" size="2" />
        <FormTextField name="performanceMinutes" label="Set length (minutes)" type="number" size="2" />
      </Grid>
      {openMic ? <CostFields /> : null}
      <NotesField />
      <Flex gap="2" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={onDone}>
          Cancel
        </Button>
        <FormSubmit size="2">Save details</FormSubmit>
      </Flex>
    </Form>
  );
}
