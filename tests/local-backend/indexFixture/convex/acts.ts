import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import type { QueryCtx } from "./_generated/server";
import { mutation, query } from "./_generated/server";

function search(ctx: QueryCtx, text: string, kind?: string) {
  return ctx.db
    .query("acts")
    .withSearchIndex("search_text", (q) =>
      kind === undefined ? q.search("text", text) : q.search("text", text).eq("kind", kind),
    );
}

export const insertMany = mutation({
  args: { acts: v.array(v.object({ text: v.string(), kind: v.string() })) },
  returns: v.array(v.id("acts")),
  handler: async (ctx, { acts }) => {
    const ids = [];
    for (const act of acts) ids.push(await ctx.db.insert("acts", act));
    return ids;
  },
});

/** The texts a search returns, in its order (`.take` when given, else `.collect`). */
export const texts = query({
  args: { text: v.string(), kind: v.optional(v.string()), take: v.optional(v.number()) },
  returns: v.array(v.string()),
  handler: async (ctx, { text, kind, take }) => {
    const q = search(ctx, text, kind);
    const acts = take === undefined ? await q.collect() : await q.take(take);
    return acts.map((act) => act.text);
  },
});

export const first = query({
  args: { text: v.string() },
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, { text }) => (await search(ctx, text).first())?.text ?? null,
});

export const page = query({
  args: { text: v.string(), kind: v.optional(v.string()), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { text, kind, paginationOpts }) => {
    const result = await search(ctx, text, kind).paginate(paginationOpts);
    return { ...result, page: result.page.map((act) => act.text) };
  },
});

export const setText = mutation({
  args: { id: v.id("acts"), text: v.string() },
  returns: v.null(),
  handler: async (ctx, { id, text }) => {
    await ctx.db.patch("acts", id, { text });
    return null;
  },
});

export const remove = mutation({
  args: { id: v.id("acts") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    await ctx.db.delete("acts", id);
    return null;
  },
});

/** Inserts, patches and deletes, searching after each: a mutation's search sees its own writes. */
export const writeThenSearch = mutation({
  args: { text: v.string(), insert: v.string(), patch: v.id("acts"), patchText: v.string(), remove: v.id("acts") },
  returns: v.array(v.array(v.string())),
  handler: async (ctx, args) => {
    const seen: string[][] = [];
    const look = async () => seen.push((await search(ctx, args.text).collect()).map((act) => act.text));
    await look();
    await ctx.db.insert("acts", { text: args.insert, kind: "x" });
    await look();
    await ctx.db.patch("acts", args.patch, { text: args.patchText });
    await look();
    await ctx.db.delete("acts", args.remove);
    await look();
    const firstPage = await search(ctx, args.text).paginate({ numItems: 1, cursor: null });
    seen.push(firstPage.page.map((act) => act.text));
    return seen;
  },
});

/**
 * Counts the acts a search finds, then inserts one more matching it, numbered
 * by that count: concurrent calls must conflict through the search's read set
 * (a call that missed another's insert would reuse its number).
 */
export const numberedInsert = mutation({
  args: { word: v.string(), kind: v.string(), awaits: v.number() },
  returns: v.number(),
  handler: async (ctx, { word, kind, awaits }) => {
    const found = await search(ctx, word, kind).take(1000);
    for (let i = 0; i < awaits; i++) await ctx.db.query("rows").first();
    await ctx.db.insert("acts", { text: `${word} ${found.length}`, kind });
    return found.length;
  },
});

/** A search with a `.filter` after it that keeps nothing: it reads candidates until Convex's limit. */
export const filteredNone = query({
  args: { text: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, { text }) =>
    (
      await search(ctx, text)
        .filter((q) => q.eq(q.field("kind"), "none"))
        .take(1)
    ).map((act) => act.text),
});
