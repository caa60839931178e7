import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { expect, test } from "./fixtures";

const NY = "America/New_York";
test.use({ timezoneId: NY });

/** The Sunday of the goal week `weeksAgo` weeks before this one, in New York, as the dashboard writes it. */
function sundayWeeksAgo(weeksAgo: number): string {
  const now = new TZDate(Date.now(), NY);
  const sunday = new TZDate(now.getFullYear(), now.getMonth(), now.getDate() - now.getDay() - 7 * weeksAgo, 12, NY);
  return format(sunday, "MMM d");
}

test.describe("the week streak on the dashboard", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a missed week is saved by the month's freeze, and the nudge counts down to the goal", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const { email } = await signUp(page, { name: "Wendy Weeks" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const streak = page.getByRole("group", { name: "Week streak" });
    // No sets yet: the nudge to start one, with the default goal.
    await expect(streak).toHaveText("Start a week streak: 15 minutes to go by Saturday");

    // Goal met four and three weeks ago, missed two weeks ago, met last week; 5 minutes so far this week.
    await runFunction("fixtures:insertWeekSets", {
      email,
      sets: [
        { weeksAgo: 4, minutes: 20 },
        { weeksAgo: 3, minutes: 15 },
        { weeksAgo: 1, minutes: 30 },
        { weeksAgo: 0, minutes: 5 },
      ],
    });
    await expect(streak.getByText("3-week streak")).toBeVisible();
    await expect(streak.getByText("Keep your streak: 10 minutes to go by Saturday")).toBeVisible();
    await expect(streak.getByText(`A freeze saved the week of ${sundayWeeksAgo(2)}`)).toBeVisible();

    // Ten more minutes meet this week's goal: the streak grows and the nudge goes, live.
    await runFunction("fixtures:insertWeekSets", { email, sets: [{ weeksAgo: 0, minutes: 10 }] });
    await expect(streak.getByText("4-week streak")).toBeVisible();
    await expect(streak.getByText(/to go by Saturday/)).toHaveCount(0);
    await expect(page.getByTestId("goal-text")).toHaveText("Goal achieved! Keep the momentum going!");
  });
});
