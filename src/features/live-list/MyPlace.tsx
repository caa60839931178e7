import { Box, Button, Flex, Link, Text } from "@radix-ui/themes";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { OnDeckPrompt } from "@/components/notifications/OnDeckPrompt";
import { paths } from "@/lib/paths";
import { useNow } from "@/lib/useNow";
import { LIST_FULL_MESSAGE, REMOVED_FROM_LIST_MESSAGE } from "@convex/lib/nightListRules";
import { isDefaultStageName } from "@convex/lib/profileRules";
import { errorCode } from "@/lib/convexErrors";
import { clockText, mySpot, placeText, type ListView } from "./listText";
import { StageNameDialog } from "./StageNameDialog";
import { useListAction } from "./useListAction";

/**
 * The comedian's own place: sign in, sign up (once online sign-up opens), their
 * place, drop out. `notShown`: they signed up but the list shown has no place
 * for them (it was full, or the host took their name off).
 */
export function MyPlace({ list, notShown }: { list: ListView; notShown: "full" | "removed" | null }) {
  const { isAuthenticated } = useConvexAuth();
  const signUp = useMutation(api.nightLists.signUp);
  const dropOut = useMutation(api.nightLists.dropOut);
  const me = useQuery(api.profiles.me, isAuthenticated ? {} : "skip");
  const [askName, setAskName] = useState(false);
  const { busy, run } = useListAction();
  const now = useNow(15_000);
  if (!isAuthenticated) {
    return (
      <Text size="2">
        <Link asChild>
          <RouterLink to={paths.auth}>Sign in</RouterLink>
        </Link>{" "}
        to put your name on the list.
      </Text>
    );
  }
  const spot = mySpot(list);
  if (spot !== null) {
    return (
      <Flex gap="3" align="center" wrap="wrap">
        <Text size="5" weight="bold" role="status" aria-live="polite">
          {placeText(list, spot)}
        </Text>
        {spot.state === "waiting" && list.status === "open" ? (
          <ConfirmDialog
            trigger={
              <Button variant="soft" color="red" loading={busy === "drop"}>
                Drop out
              </Button>
            }
            title="Drop out of tonight's list?"
            description="Your place goes to the next name. Signing up again puts you at the end."
            confirmLabel="Drop out"
            onConfirm={() => run("drop", () => dropOut({ listId: list._id }), "You dropped out")}
          />
        ) : null}
        {spot.state === "waiting" && list.status === "open" ? <OnDeckPrompt /> : null}
      </Flex>
    );
  }
  if (notShown === "removed") {
    return (
      <Text size="3" role="status">
        {REMOVED_FROM_LIST_MESSAGE}
      </Text>
    );
  }
  if (notShown === "full") {
    return (
      <Flex gap="3" align="center" wrap="wrap">
        <Text size="3" role="status" aria-live="polite">
          {LIST_FULL_MESSAGE} You're first in line if a place opens up.
        </Text>
        {list.status === "open" ? (
          <Button
            variant="soft"
            color="red"
            loading={busy === "drop"}
            onClick={() => void run("drop", () => dropOut({ listId: list._id }), "You took your name off the list")}
          >
            Take my name off
          </Button>
        ) : null}
      </Flex>
    );
  }
  if (list.status !== "open") return null;
  if (now < list.signupOpensAt) {
    return <Text size="2">Online sign-up opens at {clockText(list.signupOpensAt, list.timeZone)}.</Text>;
  }
  const signUpNow = () =>
    run("sign-up", async () => {
      try {
        await signUp({ listId: list._id });
      } catch (error) {
        // No stage name yet (the list is public): ask for one, then sign up.
        if (errorCode(error) !== "STAGE_NAME_REQUIRED") throw error;
        setAskName(true);
      }
    });
  return (
    <Box>
      <Button
        size="3"
        loading={busy === "sign-up"}
        onClick={() => (me && isDefaultStageName(me.displayName) ? setAskName(true) : void signUpNow())}
      >
        Sign up for tonight
      </Button>
      <StageNameDialog
        open={askName}
        onOpenChange={setAskName}
        onSaved={async () => {
          await signUpNow();
        }}
      />
    </Box>
  );
}
