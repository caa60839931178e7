import { z } from "zod";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { dayFromValue, micFieldsSchema, micScheduleAndCostDefaults, micScheduleAndCostSchema } from "@/lib/micSchema";
import type { CostType, MicType } from "./adminText";

const URL_MESSAGE = "Enter a full link starting with http:// or https://";
const isOptionalUrl = (s: string) => s === "" || /^https?:\/\/\S+$/i.test(s);

/** The admin edit form; mirrors `admin.updateMic`'s validator (amounts are
 * kept as typed text and read with the spec's rules in {@link toUpdateArgs}). */
export const micEditSchema = micFieldsSchema
  .pick({ title: true, venueName: true, hostName: true, notes: true })
  .extend({
    city: micFieldsSchema.shape.city.min(1, "City is required"),
    signupLink: micFieldsSchema.shape.signupLink.refine(isOptionalUrl, URL_MESSAGE),
    showLink: micFieldsSchema.shape.showLink.refine(isOptionalUrl, URL_MESSAGE),
    type: z.enum(["open_mic", "show", "booked_show", "bringer_show"]),
    status: z.enum(["active", "inactive"]),
  })
  .extend(micScheduleAndCostSchema.shape);

export type MicEditValues = z.input<typeof micEditSchema>;

type EditableItem = Pick<
  Doc<"sceneItems">,
  | "title"
  | "venueName"
  | "city"
  | "type"
  | "dayOfWeek"
  | "startTimeLocal"
  | "status"
  | "costInfo"
  | "signupLink"
  | "showLink"
  | "hostName"
  | "notes"
>;

/** The form's starting values; a missing cost uses the spec's defaults (free, fee 5, 1 item). */
export function micEditDefaults(item: EditableItem): MicEditValues {
  return {
    title: item.title,
    venueName: item.venueName,
    city: item.city,
    type: item.type,
    status: item.status,
    signupLink: item.signupLink ?? "",
    showLink: item.showLink ?? "",
    hostName: item.hostName ?? "",
    notes: item.notes ?? "",
    ...micScheduleAndCostDefaults(item),
  };
}

/** A mic fee: a number of at least 0 (a non-number counts as 0). */
export function readCoverAmount(text: string): number {
  const n = Number.parseFloat(text);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : 0;
}

/** Minimum items: a whole number of at least 1 (a non-number or 0 counts as 1). */
export function readMinimumItems(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

export type CostInfoArg = { type: CostType; coverAmount?: number; minimumItems?: number };

/** Cost info for the server: only the amounts the type uses. */
export function costInfoFrom(costType: CostType, coverAmount: string, minimumItems: string): CostInfoArg {
  const cost: CostInfoArg = { type: costType };
  if (costType === "cover" || costType === "combo") cost.coverAmount = readCoverAmount(coverAmount);
  if (costType === "minimum" || costType === "combo") cost.minimumItems = readMinimumItems(minimumItems);
  return cost;
}

/** `admin.updateMic`'s arguments: cost info for open mics, null for any other type; empty links, host name and notes are cleared. */
export function toUpdateArgs(id: Id<"sceneItems">, values: z.output<typeof micEditSchema>) {
  const type: MicType = values.type;
  return {
    id,
    title: values.title,
    venueName: values.venueName,
    city: values.city,
    type,
    dayOfWeek: dayFromValue(values.dayOfWeek),
    startTimeLocal: values.startTimeLocal,
    status: values.status,
    costInfo: type === "open_mic" ? costInfoFrom(values.costType, values.coverAmount, values.minimumItems) : null,
    signupLink: values.signupLink,
    showLink: values.showLink,
    hostName: values.hostName,
    notes: values.notes,
  };
}
