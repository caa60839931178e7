import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import type { QueryCtx } from "./_generated/server";
import { mutation, query } from "./_generated/server";

const order = v.union(v.literal("asc"), v.literal("desc"));
const bounds = {
  group: v.string(),
  order: v.optional(order),
  gte: v.optional(v.number()),
  lt: v.optional(v.number()),
};

/** The rows of a group, optionally with rank in [gte, lt), in index order. */
function inGroup(ctx: QueryCtx, args: { group: string; order?: "asc" | "desc"; gte?: number; lt?: number }) {
  return ctx.db
    .query("rows")
    .withIndex("by_group_and_rank", (q) => {
      const eq = q.eq("group", args.group);
      if (args.gte !== undefined && args.lt !== undefined) return eq.gte("rank", args.gte).lt("rank", args.lt);
      if (args.gte !== undefined) return eq.gte("rank", args.gte);
      if (args.lt !== undefined) return eq.lt("rank", args.lt);
      return eq;
    })
    .order(args.order ?? "asc");
}

export const insertMany = mutation({
  args: { rows: v.array(v.object({ group: v.string(), rank: v.number(), label: v.string() })) },
  returns: v.array(v.id("rows")),
  handler: async (ctx, { rows }) => {
    const ids = [];
    for (const row of rows) ids.push(await ctx.db.insert("rows", row));
    return ids;
  },
});

export const labels = query({
  args: { ...bounds, take: v.optional(v.number()) },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const q = inGroup(ctx, args);
    const rows = args.take === undefined ? await q.collect() : await q.take(args.take);
    return rows.map((row) => row.label);
  },
});

/** Ranks >= `from` across all groups (the single-field index), in order. */
export const byRank = query({
  args: { from: v.number(), order: v.optional(order) },
  returns: v.array(v.string()),
  handler: async (ctx, { from, order }) => {
    const rows = await ctx.db
      .query("rows")
      .withIndex("by_rank", (q) => q.gte("rank", from))
      .order(order ?? "asc")
      .collect();
    return rows.map((row) => row.label);
  },
});

export const first = query({
  args: bounds,
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, args) => (await inGroup(ctx, args).first())?.label ?? null,
});

export const unique = query({
  args: bounds,
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, args) => (await inGroup(ctx, args).unique())?.label ?? null,
});

export const page = query({
  args: { ...bounds, paginationOpts: paginationOptsValidator },
  handler: async (ctx, args) => {
    const result = await inGroup(ctx, args).paginate(args.paginationOpts);
    return { ...result, page: result.page.map((row) => row.label) };
  },
});

export const patch = mutation({
  args: { id: v.id("rows"), group: v.optional(v.string()), rank: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { id, ...fields }) => {
    await ctx.db.patch("rows", id, fields);
    return null;
  },
});

export const remove = mutation({
  args: { id: v.id("rows") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    await ctx.db.delete("rows", id);
    return null;
  },
});

/**
 * Writes and reads in one mutation: inserts a row, moves one row out of the
 * group, deletes another, and returns what the group's index range shows
 * before and after each step (a mutation reads its own writes).
 */
export const writeThenRead = mutation({
  args: { group: v.string(), moveOut: v.id("rows"), remove: v.id("rows"), label: v.string(), rank: v.number() },
  returns: v.array(v.array(v.string())),
  handler: async (ctx, args) => {
    const seen: string[][] = [];
    const look = async () => seen.push((await inGroup(ctx, { group: args.group }).collect()).map((row) => row.label));
    await look();
    await ctx.db.insert("rows", { group: args.group, rank: args.rank, label: args.label });
    await look();
    await ctx.db.patch("rows", args.moveOut, { group: `${args.group}-elsewhere` });
    await look();
    await ctx.db.delete("rows", args.remove);
    await look();
    // Pages and .take see the pending writes too.
    const firstPage = await inGroup(ctx, { group: args.group, order: "desc" }).paginate({ numItems: 3, cursor: null });
    seen.push(firstPage.page.map((row) => row.label));
    seen.push((await inGroup(ctx, { group: args.group }).take(2)).map((row) => row.label));
    return seen;
  },
});
