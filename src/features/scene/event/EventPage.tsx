import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { useConvexAuth, useQuery } from "convex/react";
import { Link as RouterLink } from "@/lib/router";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "../../../components/ErrorBoundary";
import { LoadingState } from "../../../components/LoadingState";
import { paths } from "../../../lib/paths";
import { EventFacts } from "./EventFacts";
import {
  CheckInLabel,
  ScheduleButton,
  ShareButton,
  TypeBadge,
  VenueLink,
  VerifiedBadge,
} from "../item/BadgesAndButtons";
import { checkInState } from "../item/checkInState";
import { isVerified } from "../item/sceneText";
import { useAddToSchedule } from "../actions/useAddToSchedule";
import { useEventActions } from "../actions/useEventActions";
import { useCheckIn } from "../actions/useCheckIn";
import { useNow } from "@/lib/useNow";
import { useViewerState } from "../item/useViewerState";
import { MicMuteSwitch } from "@/components/notifications/MicMuteSwitch";

function BackToScene({ variant = "ghost" }: { variant?: "ghost" | "solid" }) {
  return (
    <Button asChild variant={variant} color={variant === "ghost" ? "gray" : undefined}>
      <RouterLink to={paths.scene}>
        <ArrowLeftIcon aria-hidden="true" />
        Back to Scene
      </RouterLink>
    </Button>
  );
}

/** What the page shows when there is no event to show. */
export function EventProblem({ message }: { message: string }) {
  return (
    <Flex direction="column" align="start" gap="4">
      <Callout.Root color="red" role="alert">
        <Callout.Text>{message}</Callout.Text>
      </Callout.Root>
      <BackToScene variant="solid" />
    </Flex>
  );
}

function EventDetails({ id }: { id: string }) {
  const item = useQuery(api.scene.get, { id });
  const viewer = useViewerState();
  const now = useNow(30_000);
  const { isAuthenticated } = useConvexAuth();
  const { checkIn, pendingId } = useCheckIn();
  const addToSchedule = useAddToSchedule("page");
  const { removeFromSchedule } = useEventActions();

  if (item === undefined) return <LoadingState label="Loading event…" />;
  if (item === null) return <EventProblem message="Event not found" />;

  const { window, alreadyCheckedIn, label } = checkInState(item, viewer, now);

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center">
        <BackToScene />
        <ShareButton item={item} />
      </Flex>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Flex gap="2" wrap="wrap">
            <TypeBadge type={item.type} />
            {isVerified(item, now) ? <VerifiedBadge /> : null}
          </Flex>
          <Box>
            <Heading as="h1" size="7">
              {item.title}
            </Heading>
            <VenueLink item={item} />
          </Box>
          <EventFacts item={item} now={now} />
          <CheckInLabel label={label} status={window.status} alreadyCheckedIn={alreadyCheckedIn} />
          {isAuthenticated ? (
            <Flex gap="3" wrap="wrap">
              <ScheduleButton
                title={item.title}
                size="3"
                addLabel="Add to My Schedule"
                scheduled={!!viewer && viewer.schedule.some((e) => e.sceneItemId === item._id)}
                onAdd={() => void addToSchedule(item)}
                onRemove={() => void removeFromSchedule(item._id)}
              />
              <Button
                size="3"
                variant="soft"
                onClick={() => void checkIn(item._id)}
                disabled={alreadyCheckedIn || pendingId === item._id}
                loading={pendingId === item._id}
              >
                Check In
              </Button>
              <MicMuteSwitch micId={item._id} />
            </Flex>
          ) : (
            <Card variant="surface">
              <Flex direction={{ initial: "column", sm: "row" }} gap="3" align={{ sm: "center" }} justify="between">
                <Text size="2">Keep a schedule, check in at mics and track your stage time.</Text>
                <Button asChild size="3">
                  <RouterLink to={paths.auth}>Sign up for free</RouterLink>
                </Button>
              </Flex>
            </Card>
          )}
        </Flex>
      </Card>
    </Flex>
  );
}

/** /event/{id}: one mic or show, live, with every error state. */
export function EventPage({ id }: { id: string | undefined }) {
  if (!id) return <EventProblem message="Event ID not found" />;
  return (
    <ErrorBoundary key={id} fallback={<EventProblem message="Failed to load event" />}>
      <EventDetails id={id} />
    </ErrorBoundary>
  );
}
