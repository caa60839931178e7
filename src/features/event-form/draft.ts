import type { EventFormDraft } from "@/lib/wizardPartProps";
import { eventFormSchema, type EventFormInput, type EventFormValues } from "./schema";

const { shape } = eventFormSchema;

const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);

/** A number input holds what was typed (a string) until the form parses it. */
const numeric = (value: unknown, fallback: number): unknown =>
  typeof value === "number" || typeof value === "string" ? value : fallback;

function oneOf<T extends string>(options: readonly T[], value: unknown, fallback: T): T {
  return options.find((option) => option === value) ?? fallback;
}

/**
 * The form's starting values from a draft a wizard kept (onboarding keeps it in
 * localStorage): each field the draft holds with the right kind of value, the
 * default for the rest, so an old or damaged draft cannot break the form.
 */
export function restoreDraft(defaults: EventFormValues, draft: EventFormDraft | undefined): EventFormInput {
  if (!draft) return defaults;
  return {
    type: oneOf(shape.type.options, draft.type, defaults.type),
    title: text(draft.title, defaults.title),
    dayOfWeek: numeric(draft.dayOfWeek, defaults.dayOfWeek),
    startTimeLocal: text(draft.startTimeLocal, defaults.startTimeLocal),
    signupMethod: oneOf(shape.signupMethod.options, draft.signupMethod, defaults.signupMethod),
    listTimeLocal: text(draft.listTimeLocal, defaults.listTimeLocal),
    listTimeEdited: typeof draft.listTimeEdited === "boolean" ? draft.listTimeEdited : defaults.listTimeEdited,
    signupLink: text(draft.signupLink, defaults.signupLink),
    costType: oneOf(shape.costType.options, draft.costType, defaults.costType),
    coverAmount: numeric(draft.coverAmount, defaults.coverAmount),
    minimumItems: numeric(draft.minimumItems, defaults.minimumItems),
    showLink: text(draft.showLink, defaults.showLink),
    recurrence: oneOf(shape.recurrence.options, draft.recurrence, defaults.recurrence),
    customRecurrenceDescription: text(draft.customRecurrenceDescription, defaults.customRecurrenceDescription),
    monthlyMode: oneOf(shape.monthlyMode.options, draft.monthlyMode, defaults.monthlyMode),
    performanceMinutes: numeric(draft.performanceMinutes, defaults.performanceMinutes),
    hostName: text(draft.hostName, defaults.hostName),
  };
}
