import { describe, expect, test } from "vitest";
import { notificationSchema } from "./notificationSchema";

const base = {
  listOpens: true,
  nights: true,
  lottery: true,
  onDeck: true,
  claims: true,
  sets: true,
  leadMinutes: "30",
  quiet: false,
  quietStart: "",
  quietEnd: "",
};

describe("notification settings", () => {
  test("quiet hours are checked only when they are on", () => {
    expect(notificationSchema.safeParse(base).success).toBe(true);
    expect(notificationSchema.safeParse({ ...base, quiet: true, quietStart: "22:00", quietEnd: "08:00" }).success).toBe(
      true,
    );
    const bad = notificationSchema.safeParse({ ...base, quiet: true, quietStart: "25:00", quietEnd: "08:00" });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["quietStart", "Quiet hours must be times like 22:00."],
    ]);
    const same = notificationSchema.safeParse({ ...base, quiet: true, quietStart: "08:00", quietEnd: "08:00" });
    expect(same.success).toBe(false);
  });

  test("only the offered lead times", () => {
    expect(notificationSchema.safeParse({ ...base, leadMinutes: "45" }).success).toBe(false);
    expect(notificationSchema.safeParse({ ...base, leadMinutes: "120" }).success).toBe(true);
  });
});
