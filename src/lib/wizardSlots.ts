import type { ReactNode } from "react";
import type { EventDetails, VenueInput } from "../../convex/model/events";

/**
 * The slots a wizard step leaves for its route to fill, so that the wizard
 * features never import the venue search or the event form themselves.
 */

/** Renders the shared venue search for the wizard's chosen venue. */
export type VenueSearchSlot = (venue: VenueInput | null, onChange: (venue: VenueInput | null) => void) => ReactNode;

/** Props a wizard step passes to the shared event details form. */
export type EventFormSlotProps = {
  venueName: string;
  defaultStartTime: string;
  today: string;
  allowOneTime: boolean;
  submitLabel: string;
  onSubmit: (details: EventDetails) => Promise<void>;
  /** Extra controls above the submit button. */
  children?: ReactNode;
  secondaryAction: ReactNode;
};
