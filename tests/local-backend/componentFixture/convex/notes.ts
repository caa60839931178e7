import { HOUR, RateLimiter } from "@convex-dev/rate-limiter";
import { ShardedCounter } from "@convex-dev/sharded-counter";
import { mutation, query } from "./_generated/server";
import { components } from "./_generated/api";
import { v } from "convex/values";

const limiter = new RateLimiter(components.rateLimiter, {
  sendNote: { kind: "fixed window", rate: 3, period: HOUR },
});
const counter = new ShardedCounter(components.counter, { defaultShards: 4 });

/** At most 3 notes per author per hour; each is counted in the sharded counter. */
export const send = mutation({
  args: { author: v.string(), body: v.string() },
  handler: async (ctx, args) => {
    await limiter.limit(ctx, "sendNote", { key: args.author, throws: true });
    await ctx.db.insert("notes", args);
    await counter.inc(ctx, "notes");
    return null;
  },
});

/** The app's notes and the counter's figure. */
export const stats = query({
  args: {},
  handler: async (ctx) => {
    const notes = await ctx.db.query("notes").collect();
    const app = await ctx.db.query("rateLimits").collect();
    return { notes: notes.length, counted: await counter.count(ctx, "notes"), appRateLimits: app.length };
  },
});

/** Whether an author may send another note now (the component's own query). */
export const canSend = query({
  args: { author: v.string() },
  handler: async (ctx, { author }) => (await limiter.check(ctx, "sendNote", { key: author })).ok,
});
