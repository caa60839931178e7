import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/**
 * Logs a set of `minutes` at the (only) mic of `venueName` through the log-a-set wizard,
 * dated today at midnight (the form starts at the mic's last show, which may be last week).
 */
export async function logSet(page: Page, venueName: string, minutes: number) {
  await page.goto("/log-set");
  await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
  await page.getByRole("option", { name: new RegExp(venueName) }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/event$/);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/details$/);
  await page.getByLabel("Minutes on stage").fill(String(minutes));
  const today = await page.evaluate(() => new Date().toLocaleDateString("en-CA"));
  await page.getByLabel("Date").fill(today);
  await page.getByRole("combobox", { name: "Time" }).click();
  await page.getByRole("option", { name: "12:00 AM", exact: true }).click();
  await page.getByRole("button", { name: "Save Set" }).click();
  await expect(page.getByRole("heading", { name: "Set logged!" })).toBeVisible();
}
