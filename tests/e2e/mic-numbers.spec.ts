import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";

test.describe("a mic's numbers on its event page", () => {
  test.describe.configure({ timeout: 120_000 });

  test("not enough nights yet, then the figures from several nights of its own lists", async ({
    page,
    runFunction,
  }) => {
    const venueName = `Numbers Room ${randomUUID().slice(0, 8)}`;
    const micId = await runFunction<string>("fixtures:insertSceneItem", {
      title: `Wednesday Numbers ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
      timeZone: "America/New_York",
    });
    await page.goto(`/event/${micId}`);
    const numbers = page.getByRole("region", { name: "This mic by the numbers" });
    await expect(numbers).toContainText("Not enough nights yet");

    // Four nights: 8 comedians for 5 spots, the first set 15 minutes late, then every 10 minutes.
    await runFunction("fixtures:insertMicNights", { micId, nights: 4, spots: 5, signUps: 8, firstSetLate: 15 });
    const figures = numbers.getByLabel("This mic's numbers");
    await expect(figures).toContainText("8 for 5 spots (busiest night 8)");
    await expect(figures).toContainText("100% of nights, usually 25 min after sign-up opens");
    await expect(figures).toContainText("15 min after the listed time");
    // From the 19:30 list time: sets at 20:15 .. 20:55, 65 minutes on average.
    await expect(figures).toContainText("1 h 5 min from list time to set");
    await expect(figures).toContainText("4 of the last 4 nights held");
    // No host confirmed any of these nights.
    await expect(figures).toContainText("Host confirmed0 of the last 4 nights");
  });
});
