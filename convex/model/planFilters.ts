/**
 * The filters comedians plan by (free only, sign-up method, time of day, hide
 * stale), shared by Tonight and the scene's server pages.
 */
import { v } from "convex/values";
import type { PlanFilters } from "../lib/tonight";
export { anyPlanFilter, matchesPlanFilters, type PlanFilters } from "../lib/tonight";

export const planFiltersValidator = v.object({
  freeOnly: v.boolean(),
  signup: v.union(v.literal("any"), v.literal("in_person"), v.literal("online")),
  timeOfDay: v.union(v.literal("any"), v.literal("early"), v.literal("prime"), v.literal("late")),
  hideStale: v.boolean(),
});
export const NO_PLAN_FILTERS: PlanFilters = { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false };
