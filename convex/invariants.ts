import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalAction, internalQuery } from "./_generated/server";
import { checkInvariantPage, INVARIANT_PARTS, PagedCheck, type InvariantPage } from "./model/invariants/check";
import schema from "./schema";

const partValidator = v.union(...INVARIANT_PARTS.map((part) => v.literal(part)));

const statsFields = schema.tables.userStats.validator.fields;

/**
 * One page of one table of the invariant check (see model/invariants/check):
 * the problems its rows show and the partial sums checkAll adds up.
 * `numItems` defaults to 500 (at most 1,000).
 */
export const checkPage = internalQuery({
  args: { part: partValidator, cursor: v.union(v.string(), v.null()), numItems: v.optional(v.number()) },
  returns: v.object({
    problems: v.array(v.string()),
    continueCursor: v.string(),
    isDone: v.boolean(),
    rows: v.number(),
    tally: v.object({
      counters: v.array(v.array(v.union(v.string(), v.number()))),
      daySegments: v.array(
        v.object({
          userId: v.string(),
          first: v.string(),
          last: v.string(),
          head: v.number(),
          tail: v.number(),
          longest: v.number(),
          days: v.number(),
        }),
      ),
      stats: v.array(v.object({ ...statsFields, userExists: v.boolean() })),
      cities: v.array(v.object({ name: v.string(), items: v.number() })),
      site: v.array(
        v.object({ venues: v.number(), cities: v.number(), comedians: v.number(), minutesLogged: v.number() }),
      ),
    }),
  }),
  handler: async (ctx, { part, cursor, numItems }) => await checkInvariantPage(ctx, part, cursor, numItems),
});

/**
 * The invariant check, at any size: walks every table a page at a time
 * through checkPage and compares the totals at the end. Reports whether it
 * passed, one line per broken invariant, the rows it looked at per table and
 * the pages it read. Internal: for tests (convex/testing/test.invariants.ts), the
 * fuzzer and `npm run backend -- run invariants:checkAll` (optionally
 * '{"numItems": 200}').
 */
export const checkAll = internalAction({
  args: { numItems: v.optional(v.number()) },
  returns: v.object({
    ok: v.boolean(),
    problems: v.array(v.string()),
    rowsChecked: v.record(v.string(), v.number()),
    pages: v.number(),
  }),
  handler: async (ctx, { numItems }) => {
    const paged = new PagedCheck();
    let pages = 0;
    for (const part of INVARIANT_PARTS) {
      let cursor: string | null = null;
      for (;;) {
        const page: InvariantPage = await ctx.runQuery(internal.invariants.checkPage, { part, cursor, numItems });
        pages++;
        paged.add(part, page);
        if (page.isDone) break;
        cursor = page.continueCursor;
      }
    }
    const report = paged.finish();
    return { ...report, rowsChecked: paged.rows as Record<string, number>, pages };
  },
});
