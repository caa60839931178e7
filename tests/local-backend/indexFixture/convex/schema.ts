import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

/** The index conformance fixture: rows with many equal keys in a compound index. */
export default defineSchema({
  rows: defineTable({
    group: v.string(),
    rank: v.number(),
    label: v.string(),
  })
    .index("by_group_and_rank", ["group", "rank"])
    .index("by_rank", ["rank"]),
});
