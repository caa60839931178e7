/**
 * The in-app inbox: a notice a real server event produces (a lottery drawn by its host)
 * reaches the comedian's bell and inbox live, opens its page and is then read; the inbox
 * pages through the newest first, and "Mark all read" empties the bell.
 */
import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, expect, test, type Credentials } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { createOpenMic, expectNoReload, markNoReload } from "./support/scene";

const LIVE = { timeout: 10_000 };

async function newComedian(page: Page, signUp: (page: Page) => Promise<Credentials>): Promise<Credentials> {
  const creds = await signUp(page);
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return creds;
}

const bell = (page: Page) => page.getByRole("banner").getByRole("link", { name: /^Notifications/ });

test.describe.configure({ timeout: 180_000 });

test("a lottery drawn by its host reaches the comedian's bell and inbox live, and opens the mic", async ({
  browser,
  signIn,
  signUp,
  runFunction,
}) => {
  const tok = `zn${randomUUID().slice(0, 8)}`;
  const title = `Inbox Mic ${tok}`;
  const id = await createOpenMic(runFunction, title, "Inbox Room");

  const host = await (await browser.newContext()).newPage();
  const comedian = await (await browser.newContext()).newPage();
  await signIn(host, DEMO_ADMIN);
  await newComedian(comedian, signUp);
  await expect(bell(comedian)).toHaveAccessibleName("Notifications");

  // The host opens tonight's list as a lottery; the comedian signs up into it.
  await host.goto(`/event/${id}`);
  const form = host.getByRole("form", { name: "Open tonight's list" });
  await form.getByLabel("Spots").fill("5");
  await form.getByRole("radio", { name: "Lottery" }).click();
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  await expect(host.getByText("0 of 5 spots taken")).toBeVisible(LIVE);
  await comedian.goto(`/event/${id}`);
  await comedian.getByRole("button", { name: "Sign up for tonight" }).click();
  await expect(comedian.getByText(/^In the lottery: the draw is at/)).toBeVisible(LIVE);

  // The comedian waits in the inbox, opened from the bell (no reload from here on).
  await bell(comedian).click();
  await expect(comedian).toHaveURL(/\/notifications$/);
  await expect(comedian.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expect(comedian.getByRole("heading", { name: "No notifications yet" })).toBeVisible();
  await markNoReload(comedian);

  await host.getByRole("button", { name: "Draw the lottery now" }).click();
  await host
    .getByRole("alertdialog", { name: "Draw the lottery now?" })
    .getByRole("button", { name: "Draw now" })
    .click();

  await expect(bell(comedian)).toHaveAccessibleName("Notifications, 1 unread", LIVE);
  const inbox = comedian.getByRole("list", { name: "Your notifications" });
  const notice = inbox.getByRole("link", { name: new RegExp(`^${title}: the lottery is drawn`) });
  await expect(notice).toBeVisible(LIVE);
  await expect(notice).toContainText("You're in. See you on the list.");
  await expect(notice).toContainText("New");
  await expectNoReload(comedian);

  await notice.click();
  await expect(comedian).toHaveURL(new RegExp(`/event/${id}$`));
  await expect(comedian.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(bell(comedian)).toHaveAccessibleName("Notifications", LIVE);
  await bell(comedian).click();
  await expect(inbox.locator("li")).toHaveCount(1);
  await expect(inbox.locator("li").first()).toHaveAttribute("data-read", "true");
  await expect(notice).not.toContainText("New");
  await expectNoReload(comedian);
  for (const p of [host, comedian]) await p.context().close();
});

test("the inbox pages newest first, marks all read, and fits 390 px", async ({ page, signUp, runFunction }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const creds = await newComedian(page, signUp);
  await page.goto("/notifications");
  await expect(page.getByRole("heading", { name: "No notifications yet" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark all read" })).toBeDisabled();

  const told = await runFunction<number>("fixtures:notifyAccount", {
    email: creds.email,
    prefix: "Notice",
    count: 25,
    url: "/bits",
  });
  expect(told).toBe(25);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 25 unread", LIVE);
  const bellBox = await bell(page).boundingBox();
  expect(bellBox!.width).toBeGreaterThanOrEqual(44);
  expect(bellBox!.height).toBeGreaterThanOrEqual(44);

  // Opened afresh, the inbox shows one page (a page open while notices arrive grows to hold them).
  await page.reload();
  const items = page.getByRole("list", { name: "Your notifications" }).locator("li");
  await expect(items).toHaveCount(20, LIVE);
  await expect(items.first()).toContainText("Notice 25");
  await expect(items.nth(19)).toContainText("Notice 6");
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(items).toHaveCount(25);
  await expect(items.last()).toContainText("Notice 1");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page, { excludeToasts: true })).toEqual([]);

  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications", LIVE);
  await expect(page.getByText("All caught up")).toBeVisible();
  await expect(page.locator('li[data-read="false"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark all read" })).toBeDisabled();
});
