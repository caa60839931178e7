import { Button, Flex, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { ListView } from "./listText";
import { useListAction } from "./useListAction";

/** A list the host closed can be opened again the same night (the server refuses any other night). */
export function ReopenList({ list }: { list: ListView }) {
  const reopen = useMutation(api.nightLists.reopen);
  const { busy, run } = useListAction();
  return (
    <Flex gap="3" align="center" wrap="wrap">
      <Text size="2">Closed too early?</Text>
      <Button
        variant="soft"
        loading={busy === "reopen"}
        onClick={() => void run("reopen", () => reopen({ listId: list._id }), "The list is open again")}
      >
        Reopen the list
      </Button>
    </Flex>
  );
}
