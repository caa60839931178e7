import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";

type Run = <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;

/** A mic starting within the hour in New York, so Tonight and the live list have a night to show. */
async function insertTonightMic(runFunction: Run, title: string): Promise<string> {
  const start = new Date(Date.now() + 45 * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(start)
      .map((p) => [p.type, p.value]),
  );
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(parts.weekday);
  return await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName: "The Velvet Room",
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: day,
    startTimeLocal: `${parts.hour}:${String(Math.floor(Number(parts.minute) / 15) * 15).padStart(2, "0")}`,
    timeZone: "America/New_York",
    latitude: 40.7306,
    longitude: -73.9866,
    costInfo: { type: "free" },
    signupMethod: "in_person",
  });
}

/** Opens the first scene card's event page (View Details, then the dialog's link); returns its title. */
async function openFirstEventPage(page: Page): Promise<string> {
  await page.goto("/scene");
  const card = page.getByTestId("scene-card").first();
  await expect(card).toBeVisible({ timeout: 20_000 });
  const title = ((await card.getByRole("heading", { level: 3 }).textContent()) ?? "").trim();
  await card.getByRole("button", { name: /View Details/ }).click();
  await page.getByRole("link", { name: "Open the event page" }).click();
  await expect(page).toHaveURL(/\/event\//);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  return title;
}
import { repoRoot } from "./support/backend";

/**
 * README images, taken from the running app with the demo seed. Not part of `npm test`:
 * run `E2E_SCREENSHOTS=1 npx playwright test --grep @screenshots` to refresh them.
 */
test.describe("README screenshots @screenshots", () => {
  // New York time, so Tonight (read in the viewer's time zone) lists the seeded city's mics.
  test.use({ viewport: { width: 1280, height: 900 }, colorScheme: "light", timezoneId: "America/New_York" });
  test.describe.configure({ timeout: 120_000 });

  const shot = (name: string) => path.join(repoRoot, "docs/screenshots", name);

  test("landing page", async ({ page }) => {
    await page.goto("/");
    const stats = page.getByRole("region", { name: "The community so far" });
    await expect(stats.getByTestId("stat-venues")).not.toContainText("000");
    await page.waitForLoadState("networkidle");
    // Full page, so the live community figures at the bottom are in the picture.
    await page.screenshot({ path: shot("landing.png"), fullPage: true });
  });

  test("the scene", async ({ page, runFunction }) => {
    await insertTonightMic(runFunction, "Late Set at the Velvet Room");
    await page.goto("/scene");
    await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3 }).nth(3)).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("scene.png") });
  });

  test("the scene on a 390 px phone, filters folded", async ({ browser }) => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      colorScheme: "light",
      timezoneId: "America/New_York",
    });
    const page = await phone.newPage();
    await page.goto("/scene");
    await expect(page.getByRole("button", { name: "Filters", exact: true })).toBeVisible();
    await expect(page.getByTestId("tonight-night").first()).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("scene-phone.png") });
    await phone.close();
  });

  test("an event page", async ({ page }) => {
    await openFirstEventPage(page);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("event.png"), fullPage: true });
  });

  test("the signed-in screens: dashboard, schedule, log a set, badges", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: /^Welcome/ })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("dashboard.png"), fullPage: true });

    await page.goto("/schedule");
    await expect(page.getByRole("heading", { level: 1, name: "Your Schedule" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("schedule.png") });

    await page.goto("/log-set");
    await expect(page.getByRole("heading", { level: 1, name: "Where did you perform?" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("log-set.png") });

    await page.goto("/badges");
    await expect(page.getByRole("heading", { level: 1, name: "Badge Showcase" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Complete" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("badges.png"), fullPage: true });
  });

  test("admin claims", async ({ browser, signIn }) => {
    // A comedian claims a mic, so the queue has a card to show.
    const comedian = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(comedian, DEMO_COMEDIAN);
    await openFirstEventPage(comedian);
    const claim = comedian.getByRole("button", { name: "Claim this mic" });
    if (await claim.isVisible()) {
      await claim.click();
      const dialog = comedian.getByRole("dialog", { name: "Claim this mic" });
      await dialog
        .getByLabel("Message (optional)")
        .fill("I host this mic every week and can keep its details current.");
      await dialog.getByRole("button", { name: "Submit claim" }).click();
      await expect(comedian.getByText("Pending review")).toBeVisible();
    }
    await comedian.context().close();

    const admin = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" })
    ).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.goto("/admin");
    await expect(admin.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    await admin.getByRole("tab", { name: "Claims" }).click();
    await expect(admin.getByRole("heading", { name: /^Claim #\d+$/ }).first()).toBeVisible();
    await admin.waitForLoadState("networkidle");
    await admin.screenshot({ path: shot("admin-claims.png") });
    await admin.context().close();
  });

  test("tonight's live list and the room screen", async ({ page, signIn, runFunction }) => {
    const id = await insertTonightMic(runFunction, "Velvet Room Late List");
    // The admin may host any mic's list.
    await signIn(page, DEMO_ADMIN);
    await page.goto(`/event/${id}`);
    const form = page.getByRole("form", { name: "Open tonight's list" });
    await form.getByRole("button", { name: "Open tonight's list" }).click();
    for (const name of ["Maya Chen", "Jordan Ruiz", "Sam Patel", "Priya Nair"]) {
      await page.getByLabel("Walk-in name").fill(name);
      await page.getByRole("button", { name: "Add walk-in" }).click();
      await expect(page.getByRole("list", { name: "Running order" }).getByText(name)).toBeVisible();
    }
    await page.getByRole("button", { name: "Maya Chen is up now" }).click();
    await expect(page.getByRole("button", { name: "Maya Chen's set is done", exact: true })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // The list itself, at the top of the window (the top bar slides away on scrolling down).
    await page.getByRole("heading", { name: "Tonight's list" }).evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.evaluate(() => window.scrollBy(0, -90));
    await page.waitForTimeout(500);
    await page.screenshot({ path: shot("live-list.png") });

    await page.goto(`/event/${id}/list/screen`);
    await expect(page.getByText("Maya Chen").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: shot("room-screen.png") });
  });
});
