import { z } from "zod";
import type { Doc, Id } from "@convex/_generated/dataModel";
import {
  dayFromValue,
  micFieldsSchema,
  micScheduleAndCostDefaults,
  micScheduleAndCostSchema,
  numberText,
} from "@/lib/micSchema";

export const NO_SIGNUP = "unset";

const URL_MESSAGE = "Enter a full link starting with http:// or https://";
const isOptionalUrl = (s: string) => s === "" || /^https?:\/\/\S+$/i.test(s);

/** The claimant's edit form; mirrors `claims.updateOwnMic`'s validator. */
export const editMicSchema = micFieldsSchema
  .pick({ title: true, hostName: true, notes: true })
  .extend({
    listTimeLocal: z.string(),
    signupMethod: z.enum([NO_SIGNUP, "in_person", "online"]),
    signupLink: micFieldsSchema.shape.signupLink.refine(isOptionalUrl, URL_MESSAGE),
    showLink: micFieldsSchema.shape.showLink.refine(isOptionalUrl, URL_MESSAGE),
    performanceMinutes: numberText,
  })
  .extend(micScheduleAndCostSchema.shape);

export type EditMicValues = z.input<typeof editMicSchema>;

type Item = Pick<
  Doc<"sceneItems">,
  | "title"
  | "type"
  | "dayOfWeek"
  | "startTimeLocal"
  | "listTimeLocal"
  | "signupMethod"
  | "signupLink"
  | "showLink"
  | "hostName"
  | "notes"
  | "costInfo"
  | "performanceMinutes"
>;

export function editMicDefaults(item: Item): EditMicValues {
  return {
    ...micScheduleAndCostDefaults(item),
    title: item.title,
    listTimeLocal: (item.listTimeLocal ?? "").slice(0, 5),
    signupMethod: item.signupMethod ?? NO_SIGNUP,
    signupLink: item.signupLink ?? "",
    showLink: item.showLink ?? "",
    hostName: item.hostName ?? "",
    notes: item.notes ?? "",
    performanceMinutes: String(item.performanceMinutes ?? (item.type === "open_mic" ? 5 : 10)),
  };
}

/** Set length 1 to 60 minutes; 5 when empty or not a number. */
export function readMinutes(text: string): number {
  const n = Number.parseInt(text, 10);
  if (!Number.isFinite(n)) return 5;
  return Math.min(60, Math.max(1, n));
}

/** `claims.updateOwnMic`'s arguments. Empty optional fields are sent empty, which clears them. */
export function toOwnMicArgs(micId: Id<"sceneItems">, type: Item["type"], values: z.output<typeof editMicSchema>) {
  const openMic = type === "open_mic";
  const cover = Number.parseFloat(values.coverAmount);
  const minimum = Number.parseInt(values.minimumItems, 10);
  const costInfo: { type: typeof values.costType; coverAmount?: number; minimumItems?: number } = {
    type: values.costType,
  };
  if (values.costType === "cover" || values.costType === "combo") {
    costInfo.coverAmount = Number.isFinite(cover) && cover >= 0 ? cover : 0;
  }
  if (values.costType === "minimum" || values.costType === "combo") {
    costInfo.minimumItems = Number.isFinite(minimum) && minimum >= 1 ? minimum : 1;
  }
  return {
    micId,
    title: values.title,
    dayOfWeek: dayFromValue(values.dayOfWeek),
    startTimeLocal: values.startTimeLocal,
    listTimeLocal: values.listTimeLocal,
    signupMethod: openMic && values.signupMethod !== NO_SIGNUP ? values.signupMethod : undefined,
    signupLink: values.signupLink,
    showLink: values.showLink,
    hostName: values.hostName,
    notes: values.notes,
    costInfo: openMic ? costInfo : null,
    performanceMinutes: readMinutes(values.performanceMinutes),
  };
}
