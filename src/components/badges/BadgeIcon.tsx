import {
  GlobeIcon,
  LightningBoltIcon,
  SewingPinFilledIcon,
  StarFilledIcon,
  StopwatchIcon,
} from "@radix-ui/react-icons";
import type { CSSProperties } from "react";
import { BADGE_ICON_LABELS, type BadgeIconName } from "@convex/lib/badges";
import { CrownIcon, FlameIcon, MicIcon, PeopleIcon } from "@/components/icons/StageIcons";

const ICONS = {
  mic: MicIcon,
  stopwatch: StopwatchIcon,
  pin: SewingPinFilledIcon,
  globe: GlobeIcon,
  people: PeopleIcon,
  flame: FlameIcon,
  lightning: LightningBoltIcon,
  crown: CrownIcon,
  star: StarFilledIcon,
} as const satisfies Record<BadgeIconName, unknown>;

/**
 * A badge's icon, drawn as SVG (Radix icons or StageIcons): an image named
 * for what it shows ("Microphone"), or hidden from assistive technology with
 * `decorative` where the badge's name is read beside it anyway.
 */
export function BadgeIcon({
  name,
  size = 24,
  decorative = false,
  style,
}: {
  name: BadgeIconName;
  size?: number;
  decorative?: boolean;
  style?: CSSProperties;
}) {
  const Icon = ICONS[name];
  const a11y = decorative ? { "aria-hidden": true as const } : { role: "img", "aria-label": BADGE_ICON_LABELS[name] };
  return <Icon width={size} height={size} style={style} {...a11y} />;
}

/** The icon a 'Badge earned' toast shows (sonner's `icon`). */
export function badgeToastIcon(name: BadgeIconName) {
  return <BadgeIcon name={name} size={18} />;
}
