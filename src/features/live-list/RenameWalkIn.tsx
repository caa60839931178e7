import { Pencil1Icon } from "@radix-ui/react-icons";
import { Button } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { MAX_NAME_LENGTH } from "@convex/lib/nightListRules";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import type { ListView, SpotView } from "./listText";
import { useListAction } from "./useListAction";
import { walkInNameSchema, type WalkInNameValues } from "./walkInSchema";

/** The host corrects a walk-in's name (comedians' names come from their profiles). */
export function RenameWalkInButton({ list, spot }: { list: ListView; spot: SpotView }) {
  const rename = useMutation(api.nightLists.renameWalkIn);
  const { run } = useListAction();
  const [open, setOpen] = useState(false);
  if (!spot.walkIn) return null;
  const onSubmit = async ({ name }: WalkInNameValues) => {
    const saved = await run("rename", () => rename({ listId: list._id, spotId: spot._id, name }), "Name updated");
    if (saved) setOpen(false);
  };
  return (
    <DialogShell
      trigger={
        <Button size="1" variant="soft" color="gray" aria-label={`Edit ${spot.name}'s name`}>
          <Pencil1Icon aria-hidden="true" /> Edit name
        </Button>
      }
      title="Edit walk-in name"
      description="The name shows on the list and the room screen."
      maxWidth="420px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={walkInNameSchema}
        defaultValues={{ name: spot.name }}
        onSubmit={onSubmit}
        aria-label="Edit walk-in name"
      >
        <FormTextField
          name="name"
          label="Walk-in name"
          maxLength={MAX_NAME_LENGTH}
          hint={`Up to ${MAX_NAME_LENGTH} characters.`}
          autoComplete="off"
        />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit size="2">Save name</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}
