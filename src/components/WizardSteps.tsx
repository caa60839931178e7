import { Button, Flex } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";
import type { VenueInput } from "@convex/model/events";
import type { EventFormProps, EventPickerProps, WizardSlots } from "@/lib/wizardPartProps";
import { WizardBackButton, WizardFrame } from "./WizardFrame";

type Position = { step: number; total: number };

type EventAtVenueStepProps = Position & {
  slots: WizardSlots;
  /** The question, also the accessible name of the list of events. */
  title: string;
  venue: VenueInput;
  picker: Omit<EventPickerProps, "venue" | "label">;
  onBack: () => void;
  /** Under the list (e.g. what is still to choose). */
  status?: ReactNode;
  /** The buttons after Back (Continue, Skip). */
  actions: ReactNode;
};

/** The wizards' 'which event at this venue?' step: the venue's events as cards, then Back and the step's buttons. */
export function EventAtVenueStep({
  slots,
  step,
  total,
  title,
  venue,
  picker,
  onBack,
  status,
  actions,
}: EventAtVenueStepProps) {
  return (
    <WizardFrame step={step} total={total} title={title} subtitle={venue.venueName}>
      <slots.EventPicker venue={venue} label={title} {...picker} />
      {status}
      <Flex justify="between" gap="3" wrap="wrap">
        <WizardBackButton onClick={onBack} />
        {actions}
      </Flex>
    </WizardFrame>
  );
}

type EventDetailsStepProps = Position &
  Omit<EventFormProps, "venueName" | "secondaryAction"> & {
    slots: WizardSlots;
    title: string;
    venue: VenueInput;
    onBack: () => void;
  };

/** The wizards' event details step: the shared details form for a new event at the venue, with Back beside submit. */
export function EventDetailsStep({ slots, step, total, title, venue, onBack, ...form }: EventDetailsStepProps) {
  return (
    <WizardFrame step={step} total={total} title={title} subtitle={venue.venueName}>
      <slots.EventForm venueName={venue.venueName} secondaryAction={<WizardBackButton onClick={onBack} />} {...form} />
    </WizardFrame>
  );
}

/** A button of the page after a wizard's last step; each one leaves the wizard for `to`. */
export type WizardExit = { label: string; to: string } & Pick<ComponentProps<typeof Button>, "variant" | "color">;

/** The buttons of the page after a wizard's last step, the first one solid. */
export function WizardExits({ exits, leave }: { exits: WizardExit[]; leave: (to: string) => void }) {
  return (
    <Flex gap="3" direction={{ initial: "column", sm: "row" }} wrap="wrap">
      {exits.map(({ label, to, variant, color }) => (
        <Button key={label} size="4" variant={variant} color={color} onClick={() => leave(to)}>
          {label}
        </Button>
      ))}
    </Flex>
  );
}
