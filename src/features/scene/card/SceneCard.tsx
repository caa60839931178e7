import { Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useId } from "react";
import { numbersLineText } from "@convex/lib/micNumbersLine";
import { EventDialog } from "./EventDialog";
import {
  CancelledTonightBadge,
  CheckInLabel,
  FavoriteButton,
  ScheduleButton,
  ShareButton,
  SignupInfo,
  TypeBadge,
  VenueLink,
  VerifiedBadge,
} from "../item/BadgesAndButtons";
import { checkInState } from "../item/checkInState";
import { checkInCountText, isCancelledTonight, isVerified, listTimeText, scheduleText } from "../item/sceneText";
import { FreshnessBadge } from "../tonight/FreshnessBadge";
import { distanceText } from "../tonight/tonightText";
import { HostConfirmedTonightBadge } from "../item/BadgesAndButtons";
import { isConfirmedTonight } from "@/lib/nights";
import type { SceneItem, ViewerState } from "../item/types";

type SceneCardProps = {
  item: SceneItem;
  /** The signed-in comedian's state; null when signed out, undefined while loading. */
  viewer: ViewerState | null | undefined;
  now: number;
  /** Miles from the comedian, with the distance filter on. */
  milesAway?: number | null;
  checkingIn: boolean;
  onCheckIn: (item: SceneItem) => void;
  onAddToSchedule: (item: SceneItem) => void;
  onRemoveFromSchedule: (item: SceneItem) => void;
  onToggleFavorite: (item: SceneItem, isFavorite: boolean) => void;
};

/** One mic or show in the scene list. */
export function SceneCard({
  item,
  viewer,
  now,
  milesAway = null,
  checkingIn,
  onCheckIn,
  onAddToSchedule,
  onRemoveFromSchedule,
  onToggleFavorite,
}: SceneCardProps) {
  const titleId = useId();
  const isFavorite = !!viewer && viewer.favoriteIds.includes(item._id);
  const scheduled = !!viewer && viewer.schedule.some((e) => e.sceneItemId === item._id);
  const { window, alreadyCheckedIn, label } = checkInState(item, viewer, now);
  const listTime = listTimeText(item.listTimeLocal);
  // The mic's numbers in short; nothing until it has enough nights.
  const numbers = numbersLineText(item.numbersLine);

  // tabIndex -1: focusable from script only, as 'Show more' moves focus to the first new card.
  return (
    <Card asChild size="2">
      <article aria-labelledby={titleId} data-testid="scene-card" tabIndex={-1}>
        <Flex direction="column" gap="2" height="100%">
          <Flex justify="between" align="start" gap="2">
            <Flex gap="2" wrap="wrap">
              <TypeBadge type={item.type} />
              {isVerified(item, now) ? <VerifiedBadge /> : null}
              {isCancelledTonight(item, now) ? (
                <CancelledTonightBadge />
              ) : isConfirmedTonight(item, now) ? (
                <HostConfirmedTonightBadge />
              ) : null}
            </Flex>
            <Flex gap="3" align="center" flexShrink="0">
              <ShareButton item={item} />
              <FavoriteButton item={item} isFavorite={isFavorite} onToggle={() => onToggleFavorite(item, isFavorite)} />
            </Flex>
          </Flex>
          <Box>
            {/* elementtiming: the browser reports when this title is painted (Element Timing), which is
                what the bench times as the first scene card. React passes the attribute through; the
                spread keeps it out of the typed props. */}
            <Heading as="h3" size="4" id={titleId} {...{ elementtiming: "scene-card" }}>
              {item.title}
            </Heading>
            <VenueLink item={item} />
            {milesAway !== null ? (
              <Text as="p" size="2" color="gray" data-testid="distance">
                {distanceText(milesAway)} away
              </Text>
            ) : null}
          </Box>
          <Text size="2">
            {scheduleText(item)}
            {listTime ? ` · ${listTime}` : ""}
          </Text>
          {numbers ? (
            <Text size="2" color="gray">
              {numbers}
            </Text>
          ) : null}
          <SignupInfo item={item} />
          {item.notes ? (
            <Text
              size="2"
              color="gray"
              style={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden" }}
            >
              {item.notes}
            </Text>
          ) : null}
          <Flex gap="3" wrap="wrap">
            <Text size="2" data-testid="check-in-count">
              {checkInCountText(item.checkInCount)}
            </Text>
            <FreshnessBadge item={item} now={now} />
          </Flex>
          <CheckInLabel label={label} status={window.status} alreadyCheckedIn={alreadyCheckedIn} />
          <Flex gap="2" wrap="wrap" mt="auto" pt="2">
            <Button onClick={() => onCheckIn(item)} disabled={alreadyCheckedIn || checkingIn} loading={checkingIn}>
              Check In
            </Button>
            <ScheduleButton
              title={item.title}
              scheduled={scheduled}
              onAdd={() => onAddToSchedule(item)}
              onRemove={() => onRemoveFromSchedule(item)}
            />
            <EventDialog item={item} viewer={viewer} now={now} />
          </Flex>
        </Flex>
      </article>
    </Card>
  );
}
