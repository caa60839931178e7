/**
 * The list-opening bench's probe (tests/bench/notify.ts copies it into its own copy of
 * convex/ as `benchNotify.ts`; never part of the app): the cron's transaction and each
 * fan-out batch, run through the app's own model functions and triggers at a chosen
 * instant, each reporting the documents it read (the engine's transaction metrics).
 * The fan-out jobs they start are handed back instead of queued, so the bench runs
 * every transaction of a run itself and measures each.
 */
import { v } from "convex/values";
import type { MutationCtx } from "@convex/_generated/server";
import { internalMutation } from "@convex/functions";
import { fanOutBatch, fanOutJobValidator, fireDueAlarms, type FanOutJob } from "@convex/model/notificationFanOut";

/** `ctx` whose scheduler keeps fan-out jobs (and counts pushes it would queue) instead of queueing them. */
function keeping(ctx: MutationCtx) {
  const kept = { jobs: [] as FanOutJob[], pushes: 0 };
  const keep = async (_at: unknown, _fn: unknown, args: { job?: FanOutJob }) => {
    if (args.job !== undefined) kept.jobs.push(args.job);
    else kept.pushes++;
    return null as never;
  };
  return { ctx: { ...ctx, scheduler: { ...ctx.scheduler, runAfter: keep, runAt: keep } } as MutationCtx, kept };
}

async function measured<T>(ctx: MutationCtx, fn: (ctx: MutationCtx) => Promise<T>) {
  const { ctx: inner, kept } = keeping(ctx);
  const before = await ctx.meta.getTransactionMetrics();
  const value = await fn(inner);
  const after = await ctx.meta.getTransactionMetrics();
  return {
    value,
    jobs: kept.jobs,
    pushes: kept.pushes,
    documentsRead: after.documentsRead.used - before.documentsRead.used,
    documentsWritten: after.documentsWritten.used - before.documentsWritten.used,
  };
}

const measures = {
  jobs: v.array(fanOutJobValidator),
  pushes: v.number(),
  documentsRead: v.number(),
  documentsWritten: v.number(),
};

/** One run of the minute cron's transaction at `nowMs`. */
export const fire = internalMutation({
  args: { nowMs: v.number() },
  returns: v.object({ fired: v.number(), more: v.boolean(), ...measures }),
  handler: async (ctx, { nowMs }) => {
    const { value, ...rest } = await measured(ctx, (c) => fireDueAlarms(c, nowMs));
    return { ...value, ...rest };
  },
});

/** One fan-out batch at `nowMs`. */
export const batch = internalMutation({
  args: { job: fanOutJobValidator, nowMs: v.number() },
  returns: v.object({ told: v.number(), next: v.union(fanOutJobValidator, v.null()), ...measures }),
  handler: async (ctx, { job, nowMs }) => {
    const { value, ...rest } = await measured(ctx, (c) => fanOutBatch(c, job, nowMs));
    return { ...value, ...rest };
  },
});
