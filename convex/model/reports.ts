import { paginationResultValidator, type PaginationOptions, type PaginationResult } from "convex/server";
import type { Infer } from "convex/values";
import { v } from "convex/values";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { assertNoControlCharacters, invalid } from "../lib/textRules";
import schema, { reportKind } from "../schema";
import { setMicStatus } from "./admin";
import { displayNamesOf } from "./profiles";
import { micsById, requireActiveItem } from "./scene";

export const MAX_REPORT_NOTE_LENGTH = 1000;
/** Most open reports of one mic closed together when the mic is deactivated. */
const REPORTS_PER_MIC_LIMIT = 200;
/** Most reports of one comedian read to spot a repeat. */
const REPORTS_PER_REPORTER_LIMIT = 500;

export const NOTE_REQUIRED_MESSAGE = "Please describe the problem";
export const ALREADY_REPORTED_MESSAGE = "You already reported this problem";

export type ReportKind = Infer<typeof reportKind>;
export type ReportAction = "dismiss" | "deactivate" | "edited";

/** A report in the admin queue: the stored report (its validator from schema.ts) with the mic and reporter. */
export const adminReportValidator = schema.doc("problemReports").extend({
  micTitle: v.union(v.string(), v.null()),
  micStatus: v.union(v.literal("active"), v.literal("inactive"), v.null()),
  reporterName: v.string(),
});
export type AdminReport = Infer<typeof adminReportValidator>;
/** A page of the admin queue. */
export const adminReportPageValidator = paginationResultValidator(adminReportValidator);

/** Files a problem report on an active mic; "other" needs a note. The same
 * comedian cannot file the same kind of report on a mic twice while it is
 * open ("other" included: one open note per comedian and mic is enough, and a
 * handful of accounts cannot fill the queue with notes on one mic). */
export async function submitReport(
  ctx: MutationCtx,
  userId: Id<"users">,
  args: { micId: Id<"sceneItems">; kind: ReportKind; note?: string },
): Promise<Id<"problemReports">> {
  await requireActiveItem(ctx, args.micId);
  const note = args.note?.replace(/\r\n/g, "\n").trim();
  if (args.kind === "other" && !note) invalid(NOTE_REQUIRED_MESSAGE);
  if (note && note.length > MAX_REPORT_NOTE_LENGTH) {
    invalid(`Note must be at most ${MAX_REPORT_NOTE_LENGTH} characters`);
  }
  if (note) assertNoControlCharacters(note, { label: "Note", multiline: true });
  const mine = await ctx.db
    .query("problemReports")
    .withIndex("by_reporter", (q) => q.eq("reporterId", userId))
    .order("desc")
    .take(REPORTS_PER_REPORTER_LIMIT);
  if (mine.some((r) => r.micId === args.micId && r.kind === args.kind && r.status === "open")) {
    throw appError(ErrorCode.ALREADY_EXISTS, ALREADY_REPORTED_MESSAGE);
  }
  return await ctx.db.insert("problemReports", {
    micId: args.micId,
    reporterId: userId,
    kind: args.kind,
    note: note ? note : undefined,
    status: "open",
  });
}

/**
 * The admin queue a page at a time: open reports, newest first, with the
 * mic's title and status and the reporter's name. Every open report is
 * reachable by paging, however many newer ones there are.
 */
export async function listOpenReports(
  ctx: QueryCtx,
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<AdminReport>> {
  const result = await ctx.db
    .query("problemReports")
    .withIndex("by_status", (q) => q.eq("status", "open"))
    .order("desc")
    .paginate(paginationOpts);
  const reports = result.page;
  const [micOf, nameOf] = await Promise.all([
    micsById(
      ctx,
      reports.map((r) => r.micId),
    ),
    displayNamesOf(
      ctx,
      reports.map((r) => r.reporterId),
    ),
  ]);
  const page = reports.map((r) => {
    const mic = micOf.get(r.micId) ?? null;
    return {
      ...r,
      micTitle: mic?.title ?? null,
      micStatus: mic?.status ?? null,
      reporterName: nameOf.get(r.reporterId) ?? "Comedian",
    };
  });
  return { ...result, page };
}

/**
 * Closes an open report: "dismiss" marks it dismissed; "deactivate" sets the
 * mic inactive (it leaves the scene at once) and resolves every open report
 * of that mic; "edited" records that an admin fixed the mic by hand.
 */
export async function resolveReport(
  ctx: MutationCtx,
  {
    adminId,
    id,
    action,
    nowMs,
  }: { adminId: Id<"users">; id: Id<"problemReports">; action: ReportAction; nowMs: number },
): Promise<void> {
  const report = await ctx.db.get("problemReports", id);
  if (report === null) throw appError(ErrorCode.NOT_FOUND, "Report not found");
  if (report.status !== "open") invalid("This report has already been handled");
  const stamp = { resolvedAt: nowMs, resolvedBy: adminId };
  if (action === "dismiss") {
    await ctx.db.patch("problemReports", id, { status: "dismissed", ...stamp });
    return;
  }
  await ctx.db.patch("problemReports", id, { status: "resolved", ...stamp });
  if (action === "deactivate") {
    const mic = await ctx.db.get("sceneItems", report.micId);
    if (mic !== null) await setMicStatus(ctx, mic, "inactive");
    const others = await ctx.db
      .query("problemReports")
      .withIndex("by_mic", (q) => q.eq("micId", report.micId))
      .take(REPORTS_PER_MIC_LIMIT);
    for (const other of others) {
      if (other._id !== id && other.status === "open") {
        await ctx.db.patch("problemReports", other._id, { status: "resolved", ...stamp });
      }
    }
  }
}
