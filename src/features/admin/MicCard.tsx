import { Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { AlertDialog, Badge, Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import { checkInsLabel, dayLabel, micTypeLabel, timeLabel } from "./adminText";
import { MicEditForm } from "./MicEditForm";
import type { AdminMic } from "./types";

function DeleteMicButton({ mic }: { mic: AdminMic }) {
  const deleteMic = useMutation(api.admin.deleteMic);
  const [busy, setBusy] = useState(false);
  const confirmDelete = async () => {
    setBusy(true);
    try {
      await deleteMic({ id: mic._id });
      toast.success("Mic deleted successfully");
    } catch (error) {
      console.error("Failed to delete mic", error);
      toast.error("Failed to delete mic");
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger>
        <Button size="2" variant="soft" color="red" aria-label={`Delete ${mic.title}`} loading={busy}>
          <TrashIcon aria-hidden="true" />
          Delete
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="420px">
        <AlertDialog.Title>Delete mic</AlertDialog.Title>
        <AlertDialog.Description size="2">{`Are you sure you want to delete "${mic.title}"?`}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </AlertDialog.Cancel>
          <AlertDialog.Action>
            <Button color="red" onClick={() => void confirmDelete()}>
              Delete
            </Button>
          </AlertDialog.Action>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

type MicCardProps = {
  mic: AdminMic;
  editing: boolean;
  onEdit: () => void;
  /** Leaves edit mode; `saved` tells whether the edit was stored. */
  onDone: (saved: boolean) => void;
};

/** One mic in the admin list: view mode with Edit and Delete, or edit mode. */
export function MicCard({ mic, editing, onEdit, onDone }: MicCardProps) {
  return (
    <Card asChild size="2">
      <article aria-label={mic.title}>
        {editing ? (
          <MicEditForm mic={mic} onDone={onDone} />
        ) : (
          <Flex direction={{ initial: "column", sm: "row" }} gap="3" justify="between">
            <Box minWidth="0">
              <Heading as="h3" size="3">
                {mic.title}
              </Heading>
              <Text as="p" size="2" color="gray">
                {mic.venueName}
                {mic.city ? `, ${mic.city}` : ""}
              </Text>
              <Flex gap="2" mt="2" wrap="wrap" align="center">
                <Badge color={mic.type === "open_mic" ? "blue" : "purple"} variant="soft">
                  {micTypeLabel(mic.type)}
                </Badge>
                <Text size="2">{dayLabel(mic.dayOfWeek)}</Text>
                <Text size="2">{timeLabel(mic.startTimeLocal)}</Text>
                <Badge color={mic.status === "active" ? "green" : "gray"} variant="soft">
                  {mic.status === "active" ? "Active" : "Inactive"}
                </Badge>
                <Text size="2" color="gray">
                  {checkInsLabel(mic.checkInCount)}
                </Text>
              </Flex>
            </Box>
            <Flex gap="2" align="start" flexShrink="0">
              <Button size="2" variant="soft" onClick={onEdit} aria-label={`Edit ${mic.title}`}>
                <Pencil1Icon aria-hidden="true" />
                Edit
              </Button>
              <DeleteMicButton mic={mic} />
            </Flex>
          </Flex>
        )}
      </article>
    </Card>
  );
}
