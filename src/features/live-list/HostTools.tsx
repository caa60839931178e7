import { Button, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import type { ListView } from "./listText";
import { ReopenList } from "./ReopenList";
import { SetTimer } from "./SetTimer";
import { useListAction } from "./useListAction";

function WalkInForm({ listId }: { listId: Id<"nightLists"> }) {
  const addWalkIn = useMutation(api.nightLists.addWalkIn);
  const [name, setName] = useState("");
  const { busy, run } = useListAction();
  const id = useId();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void run("walk-in", async () => {
          await addWalkIn({ listId, name });
          setName("");
        });
      }}
    >
      <Flex gap="2" align="end" wrap="wrap">
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={id} size="2" weight="medium">
            Walk-in name
          </Text>
          <TextField.Root id={id} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </Flex>
        <Button type="submit" variant="soft" loading={busy === "walk-in"} disabled={!name.trim()}>
          Add walk-in
        </Button>
      </Flex>
    </form>
  );
}

/** The host's tools while the list is open: the set timer, walk-ins, the lottery draw, closing
 * (the draw and closing ask first); once closed by the host, reopening. */
export function HostTools({ list }: { list: ListView }) {
  const draw = useMutation(api.nightLists.draw);
  const close = useMutation(api.nightLists.close);
  const { busy, run } = useListAction();
  if (list.status !== "open") return list.closedReason === "ended" ? <ReopenList list={list} /> : null;
  return (
    <Flex direction="column" gap="3">
      <Heading as="h3" size="3">
        Host tools
      </Heading>
      <SetTimer list={list} />
      <WalkInForm listId={list._id} />
      <Flex gap="2" wrap="wrap">
        {list.mode === "lottery" && list.drawnAt === null ? (
          <ConfirmDialog
            trigger={<Button loading={busy === "draw"}>Draw the lottery now</Button>}
            title="Draw the lottery now?"
            description="The names in the lottery are drawn into the running order and the waitlist. A draw cannot be undone."
            confirmLabel="Draw now"
            onConfirm={() => run("draw", () => draw({ listId: list._id }), "The lottery was drawn")}
          />
        ) : null}
        <ConfirmDialog
          trigger={
            <Button variant="soft" color="red" loading={busy === "close"}>
              Close the list
            </Button>
          }
          title="Close tonight's list?"
          description="Nobody can sign up or be moved on while it is closed. You can reopen it tonight."
          confirmLabel="Close the list"
          onConfirm={() => run("close", () => close({ listId: list._id }), "The list is closed")}
        />
      </Flex>
    </Flex>
  );
}
