import { Pencil1Icon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { checkInsLabel, dayLabel, micTypeLabel, timeLabel } from "./adminText";
import { ConfirmActionButton } from "./ConfirmActionButton";
import { MicEditForm } from "./MicEditForm";
import type { AdminMic } from "./types";

function DeleteMicButton({ mic }: { mic: AdminMic }) {
  const deleteMic = useMutation(api.admin.deleteMic);
  return (
    <ConfirmActionButton
      label="Delete"
      ariaLabel={`Delete ${mic.title}`}
      icon={<TrashIcon aria-hidden="true" />}
      title="Delete mic"
      description={`Are you sure you want to delete "${mic.title}"?`}
      action={() => deleteMic({ id: mic._id })}
      successMessage="Mic deleted successfully"
      failureMessage="Failed to delete mic"
    />
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
