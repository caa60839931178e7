import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

/** The index conformance fixture: rows with many equal keys in a compound index; acts to search. */
export default defineSchema({
  rows: defineTable({
    group: v.string(),
    rank: v.number(),
    label: v.string(),
  })
    .index("by_group_and_rank", ["group", "rank"])
    .index("by_rank", ["rank"]),
  /** Full-text search conformance (tests/local-backend/searchBackend.test.ts). */
  acts: defineTable({ text: v.string(), kind: v.string() }).searchIndex("search_text", {
    searchField: "text",
    filterFields: ["kind"],
  }),
});
