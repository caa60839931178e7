import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

/** A scene item as the admin list returns it. */
export type AdminMic = FunctionReturnType<typeof api.admin.listMics>[number];
export type AdminClaim = FunctionReturnType<typeof api.claims.list>["page"][number];
export type AdminReport = FunctionReturnType<typeof api.reports.list>["page"][number];
