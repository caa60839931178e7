import { Button, Dialog, Flex } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { z } from "zod";
import { api } from "@convex/_generated/api";
import {
  MAX_DISPLAY_NAME_LENGTH,
  STAGE_NAME_EMPTY_MESSAGE,
  STAGE_NAME_REQUIRED_MESSAGE,
} from "@convex/lib/profileRules";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { errorMessage } from "@/lib/convexErrors";
import { stageNameField } from "@/lib/stageNameSchema";
import { toast } from "sonner";

const stageNameSchema = z.object({ stageName: stageNameField("Stage name", STAGE_NAME_EMPTY_MESSAGE) });

/**
 * Asked before a comedian's first list sign-up when they have no stage name:
 * the list and the room screen are public, so the app never shows their email.
 * Saves the name, then runs `onSaved` (the sign-up).
 */
export function StageNameDialog({
  open,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => Promise<void>;
}) {
  const setStageName = useMutation(api.profiles.setStageName);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>Your stage name</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          {STAGE_NAME_REQUIRED_MESSAGE} It shows on tonight's list and the room screen.
        </Dialog.Description>
        <Form
          schema={stageNameSchema}
          defaultValues={{ stageName: "" }}
          aria-label="Your stage name"
          onSubmit={async ({ stageName }) => {
            try {
              await setStageName({ stageName });
            } catch (error) {
              toast.error(errorMessage(error, "Could not save your stage name. Please try again."));
              return;
            }
            onOpenChange(false);
            await onSaved();
          }}
        >
          <FormTextField
            name="stageName"
            label="Stage name"
            autoComplete="nickname"
            required
            maxLength={MAX_DISPLAY_NAME_LENGTH}
          />
          <Flex gap="3" justify="end" wrap="wrap">
            <Dialog.Close>
              <Button variant="soft" color="gray" type="button">
                Cancel
              </Button>
            </Dialog.Close>
            <FormSubmit size="2">Save and sign up</FormSubmit>
          </Flex>
        </Form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
