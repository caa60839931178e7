import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { toast } from "./support/ui";

/** A one-word venue name no other test uses. */
const uniqueWord = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, "").slice(0, 8)}`;

/** A weekly open mic in the scene at a fresh venue (Thursdays at 21:00 in Chicago unless told); returns its venue and title. */
async function seedMic(
  runFunction: <T>(name: string, args?: Record<string, unknown>) => Promise<T>,
  slot: { dayOfWeek: number; startTimeLocal: string; timeZone: string } = {
    dayOfWeek: 4,
    startTimeLocal: "21:00",
    timeZone: "America/Chicago",
  },
) {
  const venueName = uniqueWord("Basement");
  const title = `Thursday Tryouts ${venueName}`;
  await runFunction("fixtures:insertSceneItem", {
    title,
    venueName,
    city: "Chicago",
    type: "open_mic",
    recurrence: "weekly",
    ...slot,
  });
  return { venueName, title };
}

/** A slot at midnight today in the browser's own zone: its last night is always today, in this week. */
async function midnightToday(page: Page) {
  return await page.evaluate(() => ({
    dayOfWeek: new Date().getDay(),
    startTimeLocal: "00:00",
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }));
}

function progress(page: Page, n: number) {
  return page.getByRole("progressbar", { name: `Step ${n} of 9` });
}

/** Whether the page fits the viewport without sideways scrolling. */
async function fitsWidth(page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

async function pickVenue(page: Page, venueName: string) {
  await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
  await page.getByRole("option", { name: new RegExp(venueName) }).click();
  await expect(page.getByLabel("Selected venue")).toContainText(venueName);
}

test.describe("onboarding", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a new comedian goes through all 9 steps, resumes after a reload, and lands on a dashboard with the set, favourite and goal", async ({
    page,
    signUp,
    runFunction,
  }) => {
    // The first set is dated at the mic's last night: tonight's midnight keeps it in this week's goal.
    const { venueName, title } = await seedMic(runFunction, await midnightToday(page));
    await signUp(page);
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    await expect(progress(page, 1)).toBeVisible();
    await page.getByRole("link", { name: "Get Started" }).click();

    // Step 2: a venue is required.
    await expect(page).toHaveURL(/\/onboarding\/venue$/);
    await expect(progress(page, 2)).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable Location" })).toBeVisible();
    await expect(page.getByRole("radio", { name: "Nearby" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(toast(page, "Please select a venue")).toContainText("Search and select a venue to continue");
    await pickVenue(page, venueName);
    await page.getByRole("button", { name: "Next" }).click();

    // Step 3: a choice is required.
    await expect(page).toHaveURL(/\/onboarding\/event$/);
    await expect(progress(page, 3)).toBeVisible();
    const mic = page.getByRole("radio", { name: new RegExp(title) });
    await expect(mic).toBeVisible();
    expect(await seriousViolations(page, { excludeToasts: true })).toEqual([]);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(toast(page, "Please make a selection")).toContainText(
      "Select an existing event or choose to create a new one",
    );
    await mic.click();
    await page.getByRole("button", { name: "Next" }).click();

    // Step 4: the set-length slider starts at 5; move it to 8.
    await expect(page).toHaveURL(/\/onboarding\/details$/);
    await expect(progress(page, 4)).toBeVisible();
    const setSlider = page.getByRole("slider", { name: "Set length (minutes)" });
    await expect(setSlider).toHaveAttribute("aria-valuenow", "5");
    expect(await seriousViolations(page, { excludeToasts: true })).toEqual([]);
    await setSlider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await expect(page.getByText("8 minutes", { exact: true })).toBeVisible();

    // A reload resumes at the same step with the same answers…
    await page.reload();
    await expect(page).toHaveURL(/\/onboarding\/details$/);
    await expect(progress(page, 4)).toBeVisible();
    await expect(page.getByRole("slider", { name: "Set length (minutes)" })).toHaveAttribute("aria-valuenow", "8");
    await expect(page.getByText(title)).toBeVisible();
    // …and the welcome page offers to continue there.
    await page.goto("/onboarding/welcome");
    await page.getByRole("link", { name: "Continue where you left off" }).click();
    await expect(page).toHaveURL(/\/onboarding\/details$/);
    await page.getByRole("button", { name: "Next" }).click();

    // Step 5 (no number skipped): logged and favourited.
    await expect(page).toHaveURL(/\/onboarding\/success$/);
    await expect(progress(page, 5)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Favorite Added!" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();

    // Step 6: the check-in pro tip.
    await expect(page).toHaveURL(/\/onboarding\/checkin-info$/);
    await expect(progress(page, 6)).toBeVisible();
    await expect(page.getByText("Pro tip")).toBeVisible();
    await expect(page.getByText(/30 minutes before to 2 hours after show time/)).toBeVisible();
    await expect(page.getByText(/2 or more comedians check in/)).toContainText("30 days");
    expect(await seriousViolations(page, { excludeToasts: true })).toEqual([]);
    await page.getByRole("button", { name: "Next" }).click();

    // Step 7: no other venue.
    await expect(page).toHaveURL(/\/onboarding\/add-another$/);
    await expect(progress(page, 7)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Add another venue?" })).toBeVisible();
    await page.getByRole("button", { name: "No, continue" }).click();

    // Step 8: the goal starts at 15; two notches make 25.
    await expect(page).toHaveURL(/\/onboarding\/goal-setting$/);
    await expect(progress(page, 8)).toBeVisible();
    const goalSlider = page.getByRole("slider", { name: "Weekly goal (minutes)" });
    await expect(goalSlider).toHaveAttribute("aria-valuenow", "15");
    await expect(page.getByText("A steady habit: a couple of mics a week.")).toBeVisible();
    expect(await seriousViolations(page, { excludeToasts: true })).toEqual([]);
    await goalSlider.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByText("25 minutes", { exact: true })).toBeVisible();
    await expect(page.getByText("Serious stage time. You're building an act!")).toBeVisible();
    // Back keeps the goal.
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/onboarding\/add-another$/);
    await page.getByRole("button", { name: "No, continue" }).click();
    await expect(page.getByText("25 minutes", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();

    // Step 9.
    await expect(page).toHaveURL(/\/onboarding\/complete$/);
    await expect(progress(page, 9)).toBeVisible();
    await expect(page.getByRole("heading", { name: "You're all set!" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Skip to Dashboard" })).toBeVisible();
    await page.getByRole("button", { name: "Let's Go" }).click();

    // The dashboard shows the 8-minute set against the 25-minute goal.
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("goal-minutes")).toHaveText("8 of 25 minutes");
    expect(await page.evaluate(() => localStorage.getItem("onboarding_progress"))).toBeNull();
    // The mic is a favourite.
    await page.goto("/schedule");
    await expect(page.getByRole("list", { name: "Favorite venues" })).toContainText(title);

    // Onboarding never shows again.
    await page.goto("/onboarding/welcome");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/onboarding/goal-setting");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a new mic from the details form, then another venue starts clean (at 375 px)", async ({
    page,
    signUp,
    runFunction,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    // Saves are counted on the wire: every events:create the page sends over its WebSocket.
    let creates = 0;
    page.on("websocket", (ws) =>
      ws.on("framesent", ({ payload }) => {
        if (typeof payload === "string" && payload.includes('"Mutation"') && payload.includes('"events:create"'))
          creates++;
      }),
    );
    const { venueName } = await seedMic(runFunction);
    await signUp(page);
    await page.getByRole("link", { name: "Get Started" }).click();
    await pickVenue(page, venueName);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: /Add a new event/ }).click();
    await page.getByRole("button", { name: "Next" }).click();

    await expect(page).toHaveURL(/\/onboarding\/venue-details$/);
    await expect(progress(page, 4)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Event details" })).toBeVisible();
    await expect(page.getByLabel("Time", { exact: true })).toHaveValue("20:00");
    expect(await fitsWidth(page)).toBe(true);
    // Next waits for a name.
    await page.getByLabel("Event name").fill("   ");
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    const newTitle = `Sunday Scratch ${venueName}`;
    await page.getByLabel("Event name").fill(newTitle);
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
    // ... and for a description of a custom frequency.
    await page.getByRole("radio", { name: /Custom Schedule/ }).click();
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.getByLabel("Describe the schedule:").fill("every third Sunday");
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
    await page.getByRole("radio", { name: /Weekly/ }).click();
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
    // Nothing goes to the scene from the form's defaults: the day and time must be confirmed first.
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Check the day and time" })).toBeVisible();
    await expect(page).toHaveURL(/\/onboarding\/venue-details$/);
    expect(creates).toBe(0);
    const confirm = page.getByRole("checkbox", { name: /^This mic is on \w+days at 8:00 PM/ });
    await confirm.check();
    // Another time must be confirmed again, and the box reads it back.
    await page.getByLabel("Time", { exact: true }).fill("21:30");
    const confirmLater = page.getByRole("checkbox", { name: /^This mic is on \w+days at 9:30 PM/ });
    await expect(confirmLater).not.toBeChecked();
    await confirmLater.check();
    // A double click saves once: the button is disabled while the first save runs.
    await page.getByRole("button", { name: "Next" }).dblclick();

    await expect(page).toHaveURL(/\/onboarding\/success$/);
    await expect(page.getByRole("heading", { name: "Venue Added!" })).toBeVisible();
    expect(creates).toBe(1);
    const items = await runFunction<Array<{ title: string }>>("venues:eventsAt", { venueName });
    expect(items.filter((i) => i.title === newTitle)).toHaveLength(1);
    await expect(toast(page, "Could not save event")).toHaveCount(0);

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole("button", { name: "Yes, add another" }).click();
    await expect(page).toHaveURL(/\/onboarding\/venue$/);
    await expect(progress(page, 2)).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Venue" })).toHaveValue("");
    await expect(page.getByLabel("Selected venue")).toHaveCount(0);
  });

  test("the event step is live: a mic added at the venue while it is open appears without a reload", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const { venueName, title } = await seedMic(runFunction);
    await signUp(page);
    await page.getByRole("link", { name: "Get Started" }).click();
    await pickVenue(page, venueName);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(progress(page, 3)).toBeVisible();
    await expect(page.getByRole("radio", { name: new RegExp(title) })).toBeVisible();

    const laterTitle = `Monday Mayhem ${venueName}`;
    await runFunction("fixtures:insertSceneItem", {
      title: laterTitle,
      venueName,
      city: "Chicago",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 1,
      startTimeLocal: "20:00",
      timeZone: "America/Chicago",
    });
    await expect(page.getByRole("radio", { name: new RegExp(laterTitle) })).toBeVisible();
    await expect(page.getByRole("radio", { name: new RegExp(laterTitle) })).toContainText(
      "Open mic · Mondays at 8:00 PM",
    );
  });

  test("Skip from step 3 opens the dashboard and onboarding never shows again", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const { venueName } = await seedMic(runFunction);
    await signUp(page);
    await page.getByRole("link", { name: "Get Started" }).click();
    await pickVenue(page, venueName);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(progress(page, 3)).toBeVisible();
    await page.getByRole("button", { name: "Skip onboarding" }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    // Skip keeps the default goal of 15 minutes and forgets the answers.
    await expect(page.getByTestId("goal-minutes")).toHaveText("0 of 15 minutes");
    expect(await page.evaluate(() => localStorage.getItem("onboarding_progress"))).toBeNull();
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/onboarding/event");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/onboarding");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
