import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/** Logs a set of `minutes` at the (only) mic of `venueName` through the log-a-set wizard. */
export async function logSet(page: Page, venueName: string, minutes: number) {
  await page.goto("/log-set");
  await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
  await page.getByRole("option", { name: new RegExp(venueName) }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/event$/);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/details$/);
  await page.getByLabel("Minutes on stage").fill(String(minutes));
  await page.getByRole("button", { name: "Save Set" }).click();
  await expect(page.getByRole("heading", { name: "Set logged!" })).toBeVisible();
}
