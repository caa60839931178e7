import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  notes: defineTable({ author: v.string(), body: v.string() }),
  // Same name as the rate limiter's own table: components keep their tables apart.
  rateLimits: defineTable({ label: v.string() }),
});
