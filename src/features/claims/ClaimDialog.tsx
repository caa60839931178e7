import { Button, Flex, Text, TextArea } from "@radix-ui/themes";
import { CharacterCount } from "@/components/form/CharacterCount";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MicRequestDialog } from "./MicRequestDialog";

const MAX_MESSAGE = 1000;

/** 'Claim this mic': an optional message for the admins, then 'Claim submitted'. */
export function ClaimDialog({ micId }: { micId: Id<"sceneItems"> }) {
  const submit = useMutation(api.claims.submit);
  const [message, setMessage] = useState("");
  const fieldId = useId();
  return (
    <MicRequestDialog
      trigger={<Button variant="soft">Claim this mic</Button>}
      title="Claim this mic"
      description="Run or host this mic? Once an admin approves your claim you can keep its details up to date and cancel single nights."
      submitLabel="Submit claim"
      send={() => submit({ micId, message: message.trim() || undefined })}
      sent={{ title: "Claim submitted", description: "An admin will review your claim." }}
      onSent={() => setMessage("")}
      failed={{ title: "Could not submit claim", log: "Claim failed" }}
    >
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={fieldId} size="2" weight="medium">
          Message (optional)
        </Text>
        <TextArea
          id={fieldId}
          value={message}
          maxLength={MAX_MESSAGE}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="e.g. I host this mic every week"
        />
        <CharacterCount length={message.length} max={MAX_MESSAGE} />
      </Flex>
    </MicRequestDialog>
  );
}
