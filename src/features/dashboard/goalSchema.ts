import { z } from "zod";
import { INVALID_GOAL_MESSAGE, MAX_WEEKLY_GOAL_MINUTES, MIN_WEEKLY_GOAL_MINUTES } from "@convex/lib/goalRules";

export { GOAL_HINT, INVALID_GOAL_MESSAGE, INVALID_GOAL_TITLE } from "@convex/lib/goalRules";

/** The dashboard's edit-goal form; mirrors api.goals.update. */
export const goalSchema = z.object({
  weeklyGoalMinutes: z
    .number({ error: INVALID_GOAL_MESSAGE })
    .int({ error: INVALID_GOAL_MESSAGE })
    .min(MIN_WEEKLY_GOAL_MINUTES, { error: INVALID_GOAL_MESSAGE })
    .max(MAX_WEEKLY_GOAL_MINUTES, { error: INVALID_GOAL_MESSAGE }),
});

export type GoalValues = z.output<typeof goalSchema>;
