import { Badge, Button, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { useNow } from "@/lib/useNow";
import type { ListView } from "./listText";
import { useListAction } from "./useListAction";

function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The set timer the host sees for whoever is up, with the light. */
function SetTimer({ list }: { list: ListView }) {
  const now = useNow(1000);
  if (list.upNow === null || list.upStartedAt === null) return null;
  const elapsed = now - list.upStartedAt;
  const light = elapsed >= (list.setMinutes - list.lightMinutes) * 60_000;
  return (
    <Flex gap="2" align="center">
      <Text size="2">Timer {elapsedText(elapsed)}</Text>
      {light ? (
        <Badge color="red" highContrast>
          Light
        </Badge>
      ) : null}
    </Flex>
  );
}

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

/** The host's tools while the list is open: the set timer, walk-ins, the lottery draw, closing. */
export function HostTools({ list }: { list: ListView }) {
  const draw = useMutation(api.nightLists.draw);
  const close = useMutation(api.nightLists.close);
  const { busy, run } = useListAction();
  if (list.status !== "open") return null;
  return (
    <Flex direction="column" gap="3">
      <Heading as="h3" size="3">
        Host tools
      </Heading>
      <SetTimer list={list} />
      <WalkInForm listId={list._id} />
      <Flex gap="2" wrap="wrap">
        {list.mode === "lottery" && list.drawnAt === null ? (
          <Button
            loading={busy === "draw"}
            onClick={() => void run("draw", () => draw({ listId: list._id }), "The lottery was drawn")}
          >
            Draw the lottery now
          </Button>
        ) : null}
        <Button
          variant="soft"
          color="red"
          loading={busy === "close"}
          onClick={() => void run("close", () => close({ listId: list._id }), "The list is closed")}
        >
          Close the list
        </Button>
      </Flex>
    </Flex>
  );
}
