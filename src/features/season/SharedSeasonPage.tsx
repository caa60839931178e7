import { Flex, Heading, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Season } from "@convex/model/season";
import { LoadingState } from "@/components/LoadingState";
import { errorMessage } from "@/lib/convexErrors";
import { SeasonNumbers } from "./SeasonNumbers";
import { periodLabel } from "./seasonText";

type Opened =
  { state: "loading" } | { state: "gone" } | { state: "error"; message: string } | { state: "open"; season: Season };

/** A comedian's season through a public link: only the numbers they chose; a revoked link says so. */
export function SharedSeasonPage({ token }: { token: string }) {
  const open = useMutation(api.season.openShared);
  const [opened, setOpened] = useState<Opened>({ state: "loading" });
  useEffect(() => {
    let live = true;
    open({ token })
      .then((season) => live && setOpened(season === null ? { state: "gone" } : { state: "open", season }))
      .catch(
        (err: unknown) =>
          live && setOpened({ state: "error", message: errorMessage(err, "Could not open this link.") }),
      );
    return () => {
      live = false;
    };
  }, [open, token]);
  if (opened.state === "loading") return <LoadingState label="Opening the season…" />;
  if (opened.state !== "open") {
    const [title, description] =
      opened.state === "gone"
        ? ["This link no longer works", "The comedian may have revoked it. Ask them for a new one."]
        : ["Could not open this link", opened.message];
    return (
      <Flex direction="column" gap="2" align="center" py="6">
        <Heading as="h1" size="6">
          {title}
        </Heading>
        <Text color="gray">{description}</Text>
      </Flex>
    );
  }
  const { season } = opened;
  return (
    <Flex direction="column" gap="4">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7">
          {season.name ? `${season.name}'s season` : "A comedian's season"}
        </Heading>
        <Text color="gray" size="2">
          {periodLabel(season)}
        </Text>
      </Flex>
      <SeasonNumbers season={season} linkMics={false} />
    </Flex>
  );
}
