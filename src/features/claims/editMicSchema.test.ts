import { describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { editMicDefaults, editMicSchema, readMinutes, toOwnMicArgs } from "./editMicSchema";

const micId = "k1mic" as Id<"sceneItems">;
const item = {
  title: "Mic",
  type: "open_mic" as const,
  dayOfWeek: 1,
  startTimeLocal: "19:30",
  listTimeLocal: "19:00",
  signupMethod: "in_person" as const,
  costInfo: { type: "free" as const },
  performanceMinutes: 5,
};

describe("claimant edit form", () => {
  test("round-trips an item into the mutation's arguments", () => {
    const values = editMicSchema.parse({
      ...editMicDefaults(item),
      hostName: " Sam ",
      costType: "combo",
      coverAmount: "4",
    });
    expect(toOwnMicArgs(micId, "open_mic", values)).toEqual({
      micId,
      title: "Mic",
      dayOfWeek: 1,
      startTimeLocal: "19:30",
      listTimeLocal: "19:00",
      signupMethod: "in_person",
      signupLink: "",
      showLink: "",
      hostName: "Sam",
      notes: "",
      costInfo: { type: "combo", coverAmount: 4, minimumItems: 1 },
      performanceMinutes: 5,
    });
  });

  test("shows send no cost info or sign-up method", () => {
    const values = editMicSchema.parse(editMicDefaults({ ...item, type: "show" }));
    const args = toOwnMicArgs(micId, "show", values);
    expect(args.costInfo).toBeNull();
    expect(args.signupMethod).toBeUndefined();
  });

  test("links must be http(s); minutes are clamped to 1..60 with 5 for junk", () => {
    expect(editMicSchema.safeParse({ ...editMicDefaults(item), signupLink: "example.com" }).success).toBe(false);
    expect(editMicSchema.safeParse({ ...editMicDefaults(item), showLink: "https://x.test/a" }).success).toBe(true);
    expect(readMinutes("abc")).toBe(5);
    expect(readMinutes("0")).toBe(1);
    expect(readMinutes("90")).toBe(60);
  });
});
