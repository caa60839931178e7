import type { FunctionReturnType } from "convex/server";
import type { ComponentType, ReactNode } from "react";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { EventDetails, VenueInput } from "@convex/model/events";

/**
 * The shared parts of the three venue → event → details wizards (onboarding,
 * log-a-set, add-event). A route fills them from the venues and event-form
 * features and hands them to its wizard's steps, so features never import
 * each other.
 */
export type WizardSlots = {
  VenueSearch: ComponentType<VenueSearchProps>;
  EventPicker: ComponentType<EventPickerProps>;
  EventForm: ComponentType<EventFormProps>;
};

/** What every step that needs a shared part receives from its route. */
export type WizardStepProps = { slots: WizardSlots };

/** The event chosen at a venue: one it already lists, or none of them (a new one). */
export type EventChoice = { kind: "existing"; sceneItemId: Id<"sceneItems">; title: string } | { kind: "none" };

/** A mic or show the scene lists at a venue. */
export type EventAtVenue = FunctionReturnType<typeof api.venues.eventsAt>[number];

export type VenueSearchProps = {
  value: VenueInput | null;
  onChange: (venue: VenueInput | null) => void;
  /** The add-event wizard: US venues only, at least 3 characters. */
  usOnly?: boolean;
  minChars?: number;
  label?: string;
  /** Focus the search box on arrival (the log wizard: the keyboard is up at once). */
  autoFocus?: boolean;
  /** The 'Enter the venue yourself' form opened or closed: its submit is then the step's only way on. */
  onManualEntryChange?: (open: boolean) => void;
};

export type EventPickerProps = {
  venue: VenueInput;
  value: EventChoice | null;
  onChange: (choice: EventChoice) => void;
  /** Accessible name of the list, unless `caption` names it with a visible text. */
  label: string;
  caption?: (found: { count: number; failed: boolean }) => string;
  /** The last card, for an event the venue does not list yet. */
  newEvent: { title: string; hint: string };
  /** The line under each event's title. */
  describe: (event: EventAtVenue) => string;
  /** The toast when the venue's events cannot be loaded (the list then offers only a new event). */
  loadError?: { title: string; description: string; id: string };
  /** Also list events at venues with a similar name (after the venue's own). */
  withSimilar?: boolean;
  /** Choose the only event, or a new one when there is none, once the list arrives. */
  preselect?: boolean;
};

/** The details form as typed so far, kept by a wizard (read back from storage, so of unknown shape). */
export type EventFormDraft = Readonly<Record<string, unknown>>;

export type EventFormProps = {
  venueName: string;
  /** 19:00 in add-event, 20:00 in the log wizard and onboarding. */
  defaultStartTime: string;
  /** Today's date (YYYY-MM-DD) for the default day, the monthly rule and the anchor date. */
  today: string;
  /** One-time is offered for shows only, and not where the item must go to the scene list. */
  allowOneTime: boolean;
  submitLabel: string;
  onSubmit: (details: EventDetails) => Promise<void>;
  /** A draft to start from, and a callback with the raw values on every change. */
  initialValues?: EventFormDraft;
  onDraftChange?: (draft: EventFormDraft) => void;
  /** Whether the submit button is disabled for the current values (onboarding's Next waits for a name). */
  submitDisabled?: (values: EventFormDraft) => boolean;
  /** A button beside the submit button (e.g. Back). */
  secondaryAction?: ReactNode;
  /** Extra controls above the submit button (e.g. 'Also add this mic to the scene'). */
  children?: ReactNode;
  /** Ask the comedian to confirm the day and time before submitting (the mic goes to the shared scene). */
  confirmSchedule?: boolean;
};

/** The toasts of a step left without its answer (onboarding and add-event). */
export const CHOOSE_FIRST = {
  venue: { title: "Please select a venue", description: "Search and select a venue to continue" },
  event: { title: "Please make a selection", description: "Select an existing event or choose to create a new one" },
} as const;
