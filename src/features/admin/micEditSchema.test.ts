import { describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import {
  costInfoFrom,
  micEditDefaults,
  micEditSchema,
  readCoverAmount,
  readMinimumItems,
  toUpdateArgs,
} from "./micEditSchema";

const id = "k17abc" as Id<"sceneItems">;
const item = {
  title: "Mic",
  venueName: "Room",
  city: "NYC",
  type: "open_mic" as const,
  dayOfWeek: 2,
  startTimeLocal: "19:30",
  status: "active" as const,
  costInfo: null,
};

describe("admin mic edit form", () => {
  test("defaults follow the item, with free / 5 / 1 for a missing cost", () => {
    expect(micEditDefaults(item)).toMatchObject({
      dayOfWeek: "2",
      costType: "free",
      coverAmount: "5",
      minimumItems: "1",
    });
    expect(micEditDefaults({ ...item, dayOfWeek: null }).dayOfWeek).toBe("none");
    expect(micEditDefaults({ ...item, costInfo: { type: "cover", coverAmount: 8 } })).toMatchObject({
      costType: "cover",
      coverAmount: "8",
    });
  });

  test.each([
    ["7.5", 7.5],
    ["", 0],
    ["abc", 0],
    ["-2", 0],
  ])("fee %j reads %d", (text, value) => {
    expect(readCoverAmount(text)).toBe(value);
  });

  test.each([
    ["3", 3],
    ["0", 1],
    ["", 1],
  ])("minimum %j reads %d", (text, value) => {
    expect(readMinimumItems(text)).toBe(value);
  });

  test("cost info keeps only the amounts its type uses", () => {
    expect(costInfoFrom("free", "5", "1")).toEqual({ type: "free" });
    expect(costInfoFrom("cover", "6", "1")).toEqual({ type: "cover", coverAmount: 6 });
    expect(costInfoFrom("minimum", "6", "2")).toEqual({ type: "minimum", minimumItems: 2 });
    expect(costInfoFrom("combo", "6", "2")).toEqual({ type: "combo", coverAmount: 6, minimumItems: 2 });
  });

  test("payload: trimmed fields, null day, and cost info cleared for other types", () => {
    const values = micEditSchema.parse({
      ...micEditDefaults(item),
      title: "  New  ",
      dayOfWeek: "none",
      costType: "cover",
    });
    expect(toUpdateArgs(id, values)).toEqual({
      id,
      title: "New",
      venueName: "Room",
      city: "NYC",
      type: "open_mic",
      dayOfWeek: null,
      startTimeLocal: "19:30",
      status: "active",
      costInfo: { type: "cover", coverAmount: 5 },
      // Empty links, host name and notes go as "" so the server clears them.
      signupLink: "",
      showLink: "",
      hostName: "",
      notes: "",
    });
    const show = micEditSchema.parse({ ...micEditDefaults(item), type: "booked_show" });
    expect(toUpdateArgs(id, show).costInfo).toBeNull();
    expect(micEditSchema.safeParse({ ...micEditDefaults(item), title: " " }).success).toBe(false);
  });
});
