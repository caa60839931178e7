import { z } from "zod";

export const MIN_GOAL = 1;
export const MAX_GOAL = 100;
export const INVALID_GOAL_TITLE = "Invalid goal";
export const INVALID_GOAL_MESSAGE = "Please enter a goal between 1 and 100 minutes.";

/** The dashboard's edit-goal form; mirrors api.goals.update (whole minutes, 1 to 100). */
export const goalSchema = z.object({
  weeklyGoalMinutes: z
    .number({ error: INVALID_GOAL_MESSAGE })
    .int({ error: INVALID_GOAL_MESSAGE })
    .min(MIN_GOAL, { error: INVALID_GOAL_MESSAGE })
    .max(MAX_GOAL, { error: INVALID_GOAL_MESSAGE }),
});

export type GoalValues = z.output<typeof goalSchema>;
