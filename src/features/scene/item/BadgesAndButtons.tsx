import { CheckCircledIcon, CheckIcon, HeartFilledIcon, HeartIcon, Share2Icon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, IconButton, Link, Text, VisuallyHidden } from "@radix-ui/themes";
import { mapsUrl, TYPE_LABELS } from "./sceneText";
import { shareEvent } from "./share";
import type { SceneItem } from "./types";

export function TypeBadge({ type }: { type: SceneItem["type"] }) {
  return (
    <Badge color={type === "open_mic" ? "blue" : "purple"} variant="soft">
      {TYPE_LABELS[type]}
    </Badge>
  );
}

/** Shown when the owner has cancelled tonight's show. */
export function CancelledTonightBadge() {
  return (
    <Badge color="red" variant="soft">
      Cancelled tonight
    </Badge>
  );
}

/** Shown when the host (or an admin) has confirmed tonight's night runs. */
export function HostConfirmedTonightBadge() {
  return (
    <Badge color="green" variant="soft" highContrast>
      Host confirmed tonight
    </Badge>
  );
}

export function VerifiedBadge() {
  return (
    <Badge color="green" variant="soft" title="Checked in by at least 2 comedians in the last 30 days">
      <CheckCircledIcon aria-hidden="true" />
      Verified
    </Badge>
  );
}

/** The venue and city, opening a maps search in a new tab. */
export function VenueLink({ item }: { item: Pick<SceneItem, "venueName" | "city"> }) {
  return (
    <Link href={mapsUrl(item)} target="_blank" rel="noopener noreferrer" size="2">
      {item.venueName}
      {item.city ? `, ${item.city}` : ""}
      <VisuallyHidden> (opens a map in a new tab)</VisuallyHidden>
    </Link>
  );
}

export function ShareButton({ item }: { item: Pick<SceneItem, "_id" | "title" | "venueName" | "city"> }) {
  return (
    <IconButton
      variant="ghost"
      color="gray"
      aria-label={`Share ${item.title}`}
      title="Share"
      onClick={() => void shareEvent(item)}
    >
      <Share2Icon aria-hidden="true" />
    </IconButton>
  );
}

export function FavoriteButton({
  item,
  isFavorite,
  onToggle,
}: {
  item: Pick<SceneItem, "_id" | "title">;
  isFavorite: boolean;
  onToggle: () => void;
}) {
  return (
    <IconButton
      variant="ghost"
      color={isFavorite ? "red" : "gray"}
      aria-label={`Favorite ${item.title}`}
      aria-pressed={isFavorite}
      onClick={onToggle}
    >
      {isFavorite ? <HeartFilledIcon aria-hidden="true" /> : <HeartIcon aria-hidden="true" />}
    </IconButton>
  );
}

/** 'Sign up in person', or a 'Sign up online' link when the mic takes online sign-ups. */
export function SignupInfo({ item }: { item: Pick<SceneItem, "signupMethod" | "signupLink"> }) {
  if (item.signupMethod === "in_person") {
    return (
      <Text size="2" color="gray">
        Sign up in person
      </Text>
    );
  }
  if (item.signupMethod === "online") {
    return item.signupLink ? (
      <Link size="2" href={item.signupLink} target="_blank" rel="noopener noreferrer">
        Sign up online
      </Link>
    ) : (
      <Text size="2" color="gray">
        Sign up online
      </Text>
    );
  }
  return null;
}

export function CheckInLabel({
  label,
  status,
  alreadyCheckedIn,
}: {
  label: string;
  status: string;
  alreadyCheckedIn: boolean;
}) {
  const color = alreadyCheckedIn ? "green" : status === "open" ? "green" : status === "upcoming" ? "amber" : "gray";
  return (
    <Flex align="center" gap="1">
      <Badge
        color={color}
        variant={status === "open" && !alreadyCheckedIn ? "solid" : "soft"}
        data-testid="check-in-label"
      >
        {label}
      </Badge>
    </Flex>
  );
}

/**
 * The schedule control of a card or an event page: "Add to Schedule" while the
 * mic is not in the comedian's schedule, else "In your schedule" and Remove.
 */
export function ScheduleButton({
  title,
  scheduled,
  onAdd,
  onRemove,
  addLabel = "Add to Schedule",
  size = "2",
}: {
  title: string;
  scheduled: boolean;
  onAdd: () => void;
  onRemove: () => void;
  addLabel?: string;
  size?: "2" | "3";
}) {
  if (!scheduled) {
    return (
      <Button size={size} variant={size === "3" ? "solid" : "soft"} onClick={onAdd}>
        {addLabel}
      </Button>
    );
  }
  return (
    <Flex gap="2" align="center">
      <Text size="2" color="green" weight="medium" style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
        <CheckIcon aria-hidden="true" /> In your schedule
      </Text>
      <Button
        size={size}
        variant="soft"
        color="gray"
        onClick={onRemove}
        aria-label={`Remove ${title} from your schedule`}
      >
        Remove
      </Button>
    </Flex>
  );
}
