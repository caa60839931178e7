/**
 * Notification choices: a topic switched off on the profile page, or a mic muted on its
 * page, stops those notices at the server; the device section says plainly when this
 * server has no push keys.
 */
import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, test, type Credentials } from "./fixtures";
import { createOpenMic } from "./support/scene";
import { toast } from "./support/ui";

async function newComedian(page: Page, signUp: (page: Page) => Promise<Credentials>): Promise<Credentials> {
  const creds = await signUp(page);
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return creds;
}

test.describe.configure({ timeout: 120_000 });

test("a topic switched off on the profile no longer arrives; quiet hours are kept", async ({
  page,
  signUp,
  runFunction,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const creds = await newComedian(page, signUp);
  const tell = (kind: string, prefix: string) =>
    runFunction<number>("fixtures:notifyAccount", { email: creds.email, prefix, count: 1, url: "/scene", kind });

  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Notification settings" });
  // The e2e backend has no VAPID keys: a plain fact, not an error.
  await expect(page.getByText("Push notifications are not set up on this server.")).toBeVisible();
  const lottery = form.getByRole("switch", { name: "The lottery is drawn" });
  await expect(lottery).toBeChecked();
  await lottery.click();
  await form.getByRole("switch", { name: "Quiet hours" }).click();
  await form.getByLabel("From").fill("23:30");
  await form.getByLabel("Until").fill("07:00");
  await form.getByRole("button", { name: "Save notification settings" }).click();
  await expect(toast(page, "Notification settings saved")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  expect(await tell("lottery", "Drawn")).toBe(0);
  expect(await tell("on_deck", "Deck")).toBe(1);

  await page.reload();
  await expect(form.getByRole("switch", { name: "The lottery is drawn" })).not.toBeChecked();
  await expect(form.getByRole("switch", { name: "Quiet hours" })).toBeChecked();
  await expect(form.getByLabel("From")).toHaveValue("23:30");
  await expect(form.getByLabel("Until")).toHaveValue("07:00");

  // Back on: it arrives again.
  await form.getByRole("switch", { name: "The lottery is drawn" }).click();
  await form.getByRole("button", { name: "Save notification settings" }).click();
  await expect(toast(page, "Notification settings saved").last()).toBeVisible();
  await expect.poll(() => tell("lottery", `Drawn again ${randomUUID().slice(0, 4)}`)).toBe(1);
});

test("a mic muted on its page sends nothing about it; unmuted, it does", async ({ page, signUp, runFunction }) => {
  const creds = await newComedian(page, signUp);
  const id = await createOpenMic(runFunction, `Mute Mic zm${randomUUID().slice(0, 8)}`, "Mute Room");
  const tell = (prefix: string) =>
    runFunction<number>("fixtures:notifyAccount", {
      email: creds.email,
      prefix,
      count: 1,
      url: `/event/${id}`,
      kind: "list_open",
      micId: id,
    });

  await page.goto(`/event/${id}`);
  const mute = page.getByRole("switch", { name: "Mute notifications about this mic" });
  await expect(mute).not.toBeChecked();
  await mute.click();
  await expect(toast(page, "Notifications about this mic are muted")).toBeVisible();
  await expect(mute).toBeChecked();
  expect(await tell("Muted")).toBe(0);

  await mute.click();
  await expect(mute).not.toBeChecked();
  await expect.poll(() => tell(`Unmuted ${randomUUID().slice(0, 4)}`)).toBe(1);
});
