import { Button, Flex, RadioGroup, Text, TextArea } from "@radix-ui/themes";
import { CharacterCount } from "@/components/form/CharacterCount";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MicRequestDialog } from "./MicRequestDialog";
import { REPORT_KINDS, type ReportKind } from "./ownerText";

/** 'Report a problem': no longer runs, wrong day or time, or other with a note; then 'Report sent'. */
export function ReportDialog({ micId }: { micId: Id<"sceneItems"> }) {
  const submit = useMutation(api.reports.submit);
  const [kind, setKind] = useState<ReportKind | "">("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const ids = { kind: useId(), note: useId(), error: useId() };
  const validate = () => {
    const problem =
      kind === "" ? "Choose what is wrong" : kind === "other" && !note.trim() ? "Please describe the problem" : null;
    setError(problem);
    return problem === null;
  };
  return (
    <MicRequestDialog
      trigger={
        <Button variant="soft" color="gray">
          Report a problem
        </Button>
      }
      title="Report a problem"
      description="Tell the admins what is wrong with this listing."
      submitLabel="Send report"
      validate={validate}
      send={() => submit({ micId, kind: kind as ReportKind, note: note.trim() || undefined })}
      sent={{ title: "Report sent", description: "Thanks! An admin will take a look." }}
      onSent={() => {
        setKind("");
        setNote("");
      }}
      failed={{ title: "Could not send report", log: "Report failed" }}
    >
      <Flex direction="column" gap="3">
        <Text id={ids.kind} size="2" weight="medium">
          What is wrong?
        </Text>
        <RadioGroup.Root
          aria-labelledby={ids.kind}
          value={kind}
          onValueChange={(value) => setKind(value as ReportKind)}
        >
          {REPORT_KINDS.map((k) => (
            <RadioGroup.Item key={k.value} value={k.value}>
              {k.label}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={ids.note} size="2" weight="medium">
            {kind === "other" ? "Note" : "Note (optional)"}
          </Text>
          <TextArea
            id={ids.note}
            value={note}
            maxLength={1000}
            onChange={(e) => setNote(e.target.value)}
            aria-describedby={error ? ids.error : undefined}
          />
          <CharacterCount length={note.length} max={1000} />
        </Flex>
        {error ? (
          <Text id={ids.error} size="1" color="red" role="alert">
            {error}
          </Text>
        ) : null}
      </Flex>
    </MicRequestDialog>
  );
}
