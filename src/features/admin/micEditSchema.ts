import { z } from "zod";
import type { Doc, Id } from "../../../convex/_generated/dataModel";
import { micFieldsSchema } from "@/lib/micSchema";
import type { CostType, MicType } from "./adminText";

/** A number input's value: react-hook-form reads number inputs as numbers (NaN
 * when empty); the payload builders read it with the spec's fallbacks. */
const numberText = z.union([z.string(), z.number()]).transform((value) => String(value));

/** The day select's value for an item without a day. */
export const NO_DAY = "none";

/** The admin edit form; mirrors `admin.updateMic`'s validator (amounts are
 * kept as typed text and read with the spec's rules in {@link toUpdateArgs}). */
export const micEditSchema = micFieldsSchema.pick({ title: true, venueName: true }).extend({
  city: micFieldsSchema.shape.city.min(1, "City is required"),
  type: z.enum(["open_mic", "show", "booked_show", "bringer_show"]),
  dayOfWeek: z.string(),
  startTimeLocal: z.string().regex(/^\d{1,2}:\d{2}(:\d{2})?$/, "Enter a start time"),
  status: z.enum(["active", "inactive"]),
  costType: z.enum(["free", "cover", "minimum", "combo"]),
  coverAmount: numberText,
  minimumItems: numberText,
});

export type MicEditValues = z.input<typeof micEditSchema>;

type EditableItem = Pick<
  Doc<"sceneItems">,
  "title" | "venueName" | "city" | "type" | "dayOfWeek" | "startTimeLocal" | "status" | "costInfo"
>;

/** The form's starting values; a missing cost uses the spec's defaults (free, fee 5, 1 item). */
export function micEditDefaults(item: EditableItem): MicEditValues {
  return {
    title: item.title,
    venueName: item.venueName,
    city: item.city,
    type: item.type,
    dayOfWeek: item.dayOfWeek === null || item.dayOfWeek === undefined ? NO_DAY : String(item.dayOfWeek),
    startTimeLocal: (item.startTimeLocal ?? "19:00").slice(0, 5),
    status: item.status,
    costType: item.costInfo?.type ?? "free",
    coverAmount: String(item.costInfo?.coverAmount ?? 5),
    minimumItems: String(item.costInfo?.minimumItems ?? 1),
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

/** `admin.updateMic`'s arguments: cost info for open mics, null for any other type. */
export function toUpdateArgs(id: Id<"sceneItems">, values: z.output<typeof micEditSchema>) {
  const type: MicType = values.type;
  return {
    id,
    title: values.title,
    venueName: values.venueName,
    city: values.city,
    type,
    dayOfWeek: values.dayOfWeek === NO_DAY ? null : Number(values.dayOfWeek),
    startTimeLocal: values.startTimeLocal,
    status: values.status,
    costInfo: type === "open_mic" ? costInfoFrom(values.costType, values.coverAmount, values.minimumItems) : null,
  };
}
