import { AlertDialog, Button, Dialog, Flex, Link, Text } from "@radix-ui/themes";
import { useState, type RefObject } from "react";
import { Link as RouterLink } from "@/lib/router";
import { paths } from "../../../lib/paths";
import { EventFacts } from "../event/EventFacts";
import { TypeBadge, VenueLink, VerifiedBadge } from "../item/BadgesAndButtons";
import { isVerified } from "../item/sceneText";
import type { SceneItem, ViewerState } from "../item/types";
import { useEventActions } from "../actions/useEventActions";

/**
 * The dialog behind 'View Details' (loaded on first use, see EventDialog): every fact of the item and the event dialog's action:
 * 'Delete Event' for an admin or the item's creator, otherwise 'Remove from
 * Schedule' when the item is on the comedian's schedule.
 */
export default function EventDialogContent({
  item,
  viewer,
  now,
  open,
  setOpen,
  trigger,
}: {
  item: SceneItem;
  viewer: ViewerState | null | undefined;
  now: number;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The card's 'View Details' button, which gets the focus back when the dialog closes. */
  trigger: RefObject<HTMLButtonElement | null>;
}) {
  const [busy, setBusy] = useState(false);
  const { deleteEvent, removeFromSchedule } = useEventActions();
  const canDelete = !!viewer && (viewer.isAdmin || (item.createdBy !== undefined && item.createdBy === viewer.userId));
  const scheduled = !!viewer && viewer.schedule.some((e) => e.sceneItemId === item._id);

  const onDelete = async () => {
    setBusy(true);
    const ok = await deleteEvent(item._id);
    setBusy(false);
    if (ok) setOpen(false);
  };

  const onRemove = async () => {
    setBusy(true);
    await removeFromSchedule(item._id);
    setBusy(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Content
        maxWidth="560px"
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          trigger.current?.focus();
        }}
      >
        <Flex gap="2" wrap="wrap" mb="2">
          <TypeBadge type={item.type} />
          {isVerified(item, now) ? <VerifiedBadge /> : null}
        </Flex>
        <Dialog.Title as="h2">{item.title}</Dialog.Title>
        <Flex direction="column" gap="3">
          <VenueLink item={item} />
          <EventFacts item={item} now={now} />
          <Text size="2">
            <Link asChild>
              <RouterLink to={paths.event(item._id)}>Open the event page</RouterLink>
            </Link>
          </Text>
        </Flex>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          {canDelete ? (
            <AlertDialog.Root>
              <AlertDialog.Trigger>
                <Button color="red" variant="soft" disabled={busy}>
                  Delete Event
                </Button>
              </AlertDialog.Trigger>
              <AlertDialog.Content maxWidth="420px">
                <AlertDialog.Title as="h2">Delete this event?</AlertDialog.Title>
                <AlertDialog.Description size="2">
                  {item.title} will be removed from the scene for everyone. Sets logged there keep their minutes but
                  lose the link to it.
                </AlertDialog.Description>
                <Flex gap="3" mt="4" justify="end">
                  <AlertDialog.Cancel>
                    <Button variant="soft" color="gray">
                      Cancel
                    </Button>
                  </AlertDialog.Cancel>
                  <AlertDialog.Action>
                    <Button color="red" onClick={() => void onDelete()}>
                      Delete Event
                    </Button>
                  </AlertDialog.Action>
                </Flex>
              </AlertDialog.Content>
            </AlertDialog.Root>
          ) : scheduled ? (
            <Button variant="soft" color="red" disabled={busy} onClick={() => void onRemove()}>
              Remove from Schedule
            </Button>
          ) : null}
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
