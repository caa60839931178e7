import { Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Button, DataList, Flex, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import { format } from "date-fns";
import { useState } from "react";
import type { api } from "@convex/_generated/api";
import { landedSummary } from "@convex/lib/bitRules";
import { MAX_NOTES_LENGTH } from "@convex/lib/setRules";
import { formatDuration } from "@convex/lib/time";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextAreaField, FormTextField } from "@/components/form";
import { editDefaults, editPerformanceSchema, type EditPerformanceValues } from "./editPerformance";
import { usePerformanceActions } from "./usePerformanceActions";

export type HistoryRow = FunctionReturnType<typeof api.history.list>["page"][number];

export function formatSetDate(ms: number): string {
  return format(ms, "MMM d, yyyy");
}

export function formatSetTime(ms: number): string {
  return format(ms, "h:mm a");
}

/** Everything known about one set. */
export function PerformanceDetailDialog({ set }: { set: HistoryRow }) {
  return (
    <DialogShell
      trigger={
        <Button size="1" variant="soft" aria-label={`Details of the set on ${formatSetDate(set.performedAt)}`}>
          Details
        </Button>
      }
      title={set.venueName}
      description={
        <>
          {formatSetDate(set.performedAt)} at {formatSetTime(set.performedAt)}
        </>
      }
      descriptionColor="gray"
      maxWidth="460px"
    >
      <DataList.Root>
        {set.eventTitle ? (
          <DataList.Item>
            <DataList.Label>Event</DataList.Label>
            <DataList.Value>{set.eventTitle}</DataList.Value>
          </DataList.Item>
        ) : null}
        {set.city ? (
          <DataList.Item>
            <DataList.Label>City</DataList.Label>
            <DataList.Value>{set.city}</DataList.Value>
          </DataList.Item>
        ) : null}
        {set.bits !== null ? (
          <DataList.Item>
            <DataList.Label>Bits</DataList.Label>
            <DataList.Value>{landedSummary(set.bits)}</DataList.Value>
          </DataList.Item>
        ) : null}
        <DataList.Item>
          <DataList.Label>Stage time</DataList.Label>
          <DataList.Value>{formatDuration(set.minutes)}</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Tags</DataList.Label>
          <DataList.Value>
            {set.tags.length > 0 ? (
              <Flex gap="1" wrap="wrap">
                {set.tags.map((tag) => (
                  <Badge key={tag} variant="soft">
                    {tag}
                  </Badge>
                ))}
              </Flex>
            ) : (
              "None"
            )}
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Notes</DataList.Label>
          <DataList.Value>
            <Text style={{ whiteSpace: "pre-wrap" }}>{set.notes ?? "None"}</Text>
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <FormActions cancel="dialog" cancelLabel="Close" mt="4" />
    </DialogShell>
  );
}

/** The edit dialog: minutes, date and time, tags and notes, parsed as the history page's edit rules say. */
export function EditPerformanceDialog({ set }: { set: HistoryRow }) {
  const [open, setOpen] = useState(false);
  const { save } = usePerformanceActions();
  const onSubmit = async (values: EditPerformanceValues) => {
    if (await save(set._id, values)) setOpen(false);
  };
  return (
    <DialogShell
      trigger={
        <Button size="1" variant="soft" aria-label={`Edit the set on ${formatSetDate(set.performedAt)}`}>
          <Pencil1Icon aria-hidden="true" /> Edit
        </Button>
      }
      title="Edit performance"
      description={set.venueName}
      descriptionColor="gray"
      maxWidth="460px"
      open={open}
      onOpenChange={setOpen}
    >
      {/* Mounted only while open, so it starts from the saved set each time. */}
      <Form
        schema={editPerformanceSchema}
        defaultValues={editDefaults(set)}
        onSubmit={onSubmit}
        aria-label="Edit performance"
      >
        <FormTextField name="minutes" label="Minutes" hint="Whole minutes on stage, 1 to 600." />
        <Flex gap="3" wrap="wrap">
          <FormTextField name="date" label="Date" type="date" required />
          <FormTextField name="time" label="Time" type="time" required />
        </Flex>
        <FormTextField name="tags" label="Tags" placeholder="crowd work, new bits" hint="Separate tags with commas." />
        <FormTextAreaField name="notes" label="Notes" rows={3} maxLength={MAX_NOTES_LENGTH} />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit size="2">Save changes</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

/** Delete with a confirmation. */
export function DeletePerformanceDialog({ set }: { set: HistoryRow }) {
  const { destroy } = usePerformanceActions();
  return (
    <ConfirmDialog
      trigger={
        <Button size="1" variant="soft" color="red" aria-label={`Delete the set on ${formatSetDate(set.performedAt)}`}>
          <TrashIcon aria-hidden="true" /> Delete
        </Button>
      }
      title="Delete this performance?"
      description={
        <>
          Your {formatDuration(set.minutes)} set at {set.venueName} on {formatSetDate(set.performedAt)} will be removed
          from your history, totals and streaks.
        </>
      }
      confirmLabel="Delete"
      onConfirm={() => destroy(set._id)}
    />
  );
}
