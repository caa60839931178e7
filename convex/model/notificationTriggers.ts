/**
 * The events that notify, noticed where they are written: a claim decided or filed, a
 * report filed, a night cancelled or confirmed, a mic's list time changed, a live list
 * opened, drawn or moved on. Whichever mutation makes the write, these run in its
 * transaction; anything that reads a list or many followers runs as scheduled work.
 */
import type { Change, Triggers } from "convex-helpers/server/triggers";
import { internal } from "../_generated/api";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { nightChanged, onlineListOpened, syncAlarm } from "./notificationFanOut";
import { notify } from "./notifications";

type TriggerCtx = MutationCtx & { innerDb: MutationCtx["db"] };

/** Admins told about a new claim or report at most (the admin queue has them all). */
const ADMINS_TOLD = 20;

export function registerNotificationTriggers(triggers: Triggers<DataModel>): void {
  triggers.register("micClaims", claimChanged);
  triggers.register("problemReports", reportFiled);
  triggers.register("sceneItems", micChanged);
  triggers.register("nightLists", nightListChanged);
}

async function tellAdmins(
  ctx: TriggerCtx,
  notice: { eventKey: string; title: string; body: string },
  nowMs: number,
): Promise<void> {
  const admins = await ctx.db
    .query("profiles")
    .withIndex("by_isAdmin", (q) => q.eq("isAdmin", true))
    .take(ADMINS_TOLD);
  for (const admin of admins) {
    await notify(ctx, { userId: admin.userId, nowMs, notice: { kind: "admin_queue", url: "/admin", ...notice } });
  }
}

async function claimChanged(ctx: TriggerCtx, change: Change<DataModel, "micClaims">): Promise<void> {
  const nowMs = Date.now();
  const claim = change.newDoc;
  if (claim === null) return;
  const item = await ctx.db.get("sceneItems", claim.micId);
  const title = item?.title ?? "a mic";
  if (change.operation === "insert" && claim.status === "pending") {
    await tellAdmins(
      ctx,
      { eventKey: `claim_filed:${claim._id}`, title: "New claim to review", body: `Someone claims ${title}.` },
      nowMs,
    );
    return;
  }
  const decided = claim.status === "approved" || claim.status === "denied";
  if (change.operation !== "update" || change.oldDoc.status !== "pending" || !decided) return;
  await notify(ctx, {
    userId: claim.claimantId,
    nowMs,
    notice: {
      kind: "claim_decided",
      eventKey: `claim_decided:${claim._id}`,
      title: claim.status === "approved" ? "Your claim was approved" : "Your claim was not approved",
      body:
        claim.status === "approved"
          ? `You now manage ${title}: open its list, cancel or confirm nights.`
          : `An admin could not confirm that you run ${title}.`,
      url: `/event/${claim.micId}`,
    },
  });
}

async function reportFiled(ctx: TriggerCtx, change: Change<DataModel, "problemReports">): Promise<void> {
  if (change.operation !== "insert") return;
  const report = change.newDoc;
  const item = await ctx.db.get("sceneItems", report.micId);
  await tellAdmins(
    ctx,
    {
      eventKey: `report_filed:${report._id}`,
      title: "New problem report",
      body: `A comedian reported a problem with ${item?.title ?? "a mic"}.`,
    },
    Date.now(),
  );
}

/** Dates in `after` that are not in `before`. */
function added(before: string[] | undefined, after: string[] | undefined): string[] {
  const old = new Set(before ?? []);
  return (after ?? []).filter((d) => !old.has(d));
}

const ALARM_FIELDS = [
  "status",
  "type",
  "signupMethod",
  "dayOfWeek",
  "startTimeLocal",
  "listTimeLocal",
  "recurrence",
  "customRecurrenceDescription",
  "monthlyRule",
  "anchorDate",
  "timeZone",
] as const satisfies readonly (keyof Doc<"sceneItems">)[];

async function micChanged(ctx: TriggerCtx, change: Change<DataModel, "sceneItems">): Promise<void> {
  const nowMs = Date.now();
  if (change.operation === "delete") {
    const alarm = await ctx.db
      .query("listAlarms")
      .withIndex("by_micId", (q) => q.eq("micId", change.id))
      .first();
    if (alarm !== null) await ctx.db.delete("listAlarms", alarm._id);
    return;
  }
  const item = change.newDoc;
  const before = change.operation === "update" ? change.oldDoc : null;
  // Every check-in writes its mic: only a change of when the list is looks at the alarm.
  if (before === null || ALARM_FIELDS.some((f) => before[f] !== item[f])) await syncAlarm(ctx, item, nowMs);
  if (before === null) return;
  for (const date of added(before.cancelledDates, item.cancelledDates)) {
    await nightChanged(ctx, { item, date, change: "cancelled" });
  }
  for (const date of added(before.confirmedDates, item.confirmedDates)) {
    await nightChanged(ctx, { item, date, change: "confirmed" });
  }
}

async function nightListChanged(ctx: TriggerCtx, change: Change<DataModel, "nightLists">): Promise<void> {
  const nowMs = Date.now();
  if (change.operation === "insert") {
    await onlineListOpened(ctx, change.newDoc, nowMs);
    return;
  }
  if (change.operation !== "update") return;
  const [before, list] = [change.oldDoc, change.newDoc];
  const listId: Id<"nightLists"> = list._id;
  if (before.drawnAt === undefined && list.drawnAt !== undefined) {
    await ctx.scheduler.runAfter(0, internal.notifications.lotteryDrawn, { listId });
  }
  // The host's changes move the version; the scheduled read sees the list as committed.
  if (list.status === "open" && before.version !== list.version) {
    await ctx.scheduler.runAfter(0, internal.notifications.listMoved, { listId });
  }
}
