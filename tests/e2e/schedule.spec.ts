import AxeBuilder from "@axe-core/playwright";
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import ICAL from "ical.js";
import { addDaysToDate, dayOfWeekOfDate, localDateString, zonedEpoch } from "@convex/lib/time";
import { scheduleWeek, shiftWeek } from "@convex/lib/weeks";
import { weekLabel } from "../../src/features/schedule/weekParam";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";

const NY = "America/New_York";
test.use({ timezoneId: NY });

const token = () => `zs${randomUUID().slice(0, 8)}`;
const weekRange = (page: import("@playwright/test").Page) => page.getByTestId("week-range");

function ordinalSuffix(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return "th";
  return ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[day % 10] ?? "th";
}

test.describe("the schedule", () => {
  test.describe.configure({ timeout: 120_000 });

  test("signed out, the schedule is only a prompt to sign in", async ({ page }) => {
    await page.goto("/schedule");
    await expect(page.getByRole("heading", { level: 1, name: "Sign up to access Schedule" })).toBeVisible();
    const preview = page.getByTestId("preview-content");
    await expect(preview.getByText("Sign in to see your schedule")).toBeAttached();
    await expect(preview.getByRole("button", { name: "Previous week", includeHidden: true })).toHaveCount(0);
  });

  test("previous and next week, and the ?week= parameter", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/schedule");
    await expect(page.getByRole("heading", { level: 1, name: "Your Schedule" })).toBeVisible();
    const thisWeek = scheduleWeek(localDateString(Date.now(), NY), NY);
    await expect(weekRange(page)).toHaveText(weekLabel(thisWeek));
    for (const name of ["Upcoming", "Total Sets Logged", "Unique Venues", "Total Time on Stage"]) {
      await expect(page.getByRole("group", { name })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Add Spot" }).first()).toHaveAttribute("href", "/add-event");
    await expect(
      page.getByRole("list", { name: "Favorite venues" }).getByRole("link", { name: "Basement Bombs Open Mic" }),
    ).toBeVisible();

    await page.getByRole("button", { name: "Next week" }).click();
    await expect(weekRange(page)).toHaveText(weekLabel(scheduleWeek(shiftWeek(thisWeek.startDate, 1), NY)));
    await page.getByRole("button", { name: "Previous week" }).click();
    await page.getByRole("button", { name: "Previous week" }).click();
    await expect(weekRange(page)).toHaveText(weekLabel(scheduleWeek(shiftWeek(thisWeek.startDate, -1), NY)));
    // Last week holds the demo comedian's logged sets.
    await expect(page.getByRole("button", { name: "Delete Performance Log" }).first()).toBeVisible();
    await page.getByRole("button", { name: "Back to this week" }).click();
    await expect(weekRange(page)).toHaveText(weekLabel(thisWeek));

    // A date 5 weeks ahead opens its Monday-to-Sunday week, and the parameter leaves the URL.
    const later = addDaysToDate(thisWeek.startDate, 5 * 7 + 3);
    await page.goto(`/schedule?week=${later}`);
    await expect(weekRange(page)).toHaveText(weekLabel(scheduleWeek(later, NY)));
    await expect(page).toHaveURL(/\/schedule$/);
  });

  test("jump to that week from the scene, download the calendar, remove the entry", async ({
    page,
    signIn,
    runFunction,
  }) => {
    const tok = token();
    const title = `Far Mic ${tok}`;
    // A monthly mic whose next date is about two weeks out: outside this week.
    const today = localDateString(Date.now(), NY);
    let target = addDaysToDate(today, 14);
    if (Number(target.slice(8)) > 28) target = addDaysToDate(today, 10);
    const day = Number(target.slice(8));
    await runFunction("fixtures:insertSceneItem", {
      title,
      venueName: `Attic ${tok}`,
      city: "Brooklyn",
      type: "open_mic",
      recurrence: "monthly",
      monthlyRule: `Monthly on the ${day}${ordinalSuffix(day)}`,
      dayOfWeek: dayOfWeekOfDate(target),
      startTimeLocal: "19:30",
      timeZone: NY,
    });

    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/scene");
    await page.getByLabel("Search mics, venues or cities").fill(tok);
    await page.getByRole("article", { name: title }).getByRole("button", { name: "Add to Schedule" }).click();
    const added = toast(page, `Added ${title} to your schedule`);
    await expect(added).toBeVisible();
    await added.getByRole("button", { name: "Jump to that week" }).click();

    await expect(page).toHaveURL(/\/schedule$/);
    await expect(weekRange(page)).toHaveText(weekLabel(scheduleWeek(target, NY)));
    const entry = page.getByRole("listitem", { name: title });
    await expect(entry).toBeVisible();
    await expect(entry).toContainText("7:30 PM");
    await expect(entry.getByRole("link", { name: "View Event" })).toHaveAttribute("href", /\/event\//);

    // The calendar file holds the new mic (monthly, in New York time) and the seeded weekly one.
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Add to calendar" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe("stagetime-schedule.ics");
    const text = fs.readFileSync(await download.path(), "utf8");
    const root = new ICAL.Component(ICAL.parse(text));
    for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(new ICAL.Timezone(tz));
    const events = root.getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
    const mine = events.find((e) => e.summary === title);
    expect(mine).toBeDefined();
    expect(mine!.component.getFirstPropertyValue("rrule")?.toString()).toBe(`FREQ=MONTHLY;BYMONTHDAY=${day}`);
    expect(mine!.startDate.zone?.tzid).toBe(NY);
    expect(mine!.startDate.toString()).toBe(`${target}T19:30:00`);
    expect(mine!.startDate.toJSDate().getTime()).toBe(zonedEpoch(target, "19:30", NY));
    expect(mine!.location).toBe(`Attic ${tok}, Brooklyn`);
    const early = events.find((e) => e.summary === "Early Birds Mic");
    expect(early?.component.getFirstPropertyValue("rrule")?.toString()).toBe("FREQ=WEEKLY;BYDAY=TU");

    await entry.getByRole("button", { name: "Remove from Schedule" }).click();
    await expect(toast(page, "Event removed from your schedule")).toBeVisible();
    await expect(page.getByRole("listitem", { name: title })).toHaveCount(0);
    // Gone for good, not only from this page's optimistic state.
    await page.goto(`/schedule?week=${target}`);
    await expect(weekRange(page)).toHaveText(weekLabel(scheduleWeek(target, NY)));
    await expect(
      page
        .getByRole("heading", {
          name: /Nothing on your schedule|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday/,
        })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole("listitem", { name: title })).toHaveCount(0);
  });
});

test("the schedule and the dashboard fit a 375 px phone and pass axe", async ({ browser, signIn }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, timezoneId: NY });
  const page = await context.newPage();
  await signIn(page, DEMO_COMEDIAN);
  for (const [path, heading] of [
    ["/schedule", "Your Schedule"],
    ["/dashboard", /Welcome/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole("status", { name: /Loading/ })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await context.close();
});
