import { beforeEach, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { expectAppError } from "./testing/test.expect";
import { createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";

let t: TestBackend;
let comic: TestUser;

beforeEach(async () => {
  t = newTest();
  comic = await createUser(t);
});

async function savedGoal(): Promise<number | undefined> {
  return await t.run(async (ctx) => (await ctx.db.get("profiles", comic.profileId))?.weeklyGoalMinutes);
}

describe("goals.update", () => {
  test.each([1, 42, 100])("saves a goal of %d minutes on the profile and returns it", async (goal) => {
    expect(await comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: goal })).toBe(goal);
    expect(await savedGoal()).toBe(goal);
    const me = await comic.asUser.query(api.profiles.me, {});
    expect(me?.weeklyGoalMinutes).toBe(goal);
  });

  test.each([0, 101, 1.5, -5, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses %d with the spec's message and keeps the old goal",
    async (goal) => {
      const data = await expectAppError(
        comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: goal }),
        "INVALID_INPUT",
        "Please enter a goal between 1 and 100 minutes.",
      );
      expect(data).toMatchObject({ title: "Invalid goal" });
      expect(await savedGoal()).toBe(15);
    },
  );

  test("refuses text that is not a number", async () => {
    await expect(
      comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: "abc" as unknown as number }),
    ).rejects.toThrow(/Expected `number`/);
    expect(await savedGoal()).toBe(15);
  });

  test("signed-out callers are refused", async () => {
    await expectAppError(t.mutation(api.goals.update, { weeklyGoalMinutes: 20 }), "NOT_SIGNED_IN", /sign in/i);
    expect(await savedGoal()).toBe(15);
  });

  test("changes only the caller's goal", async () => {
    const other = await createUser(t);
    await comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: 30 });
    const otherProfile = await t.run(async (ctx) => await ctx.db.get("profiles", other.profileId));
    expect(otherProfile?.weeklyGoalMinutes).toBe(15);
  });
});
