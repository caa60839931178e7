import { randomUUID } from "node:crypto";
import { DEFAULT_STAGE_NAME_MESSAGE, STAGE_NAME_REQUIRED_MESSAGE } from "@convex/lib/profileRules";
import { DEMO_ADMIN, expect, test } from "./fixtures";
import { createOpenMic } from "./support/scene";

test.describe.configure({ timeout: 180_000 });

const LIVE = { timeout: 5_000 };

test("a comedian who signed up without a name is asked for a stage name before the list; the list never shows their email", async ({
  browser,
  signIn,
  signUp,
  runFunction,
}) => {
  const tok = `sn${randomUUID().slice(0, 8)}`;
  const id = await createOpenMic(runFunction, `Stage Name Mic ${tok}`, "Name Room");
  const host = await (await browser.newContext()).newPage();
  const comedian = await (await browser.newContext()).newPage();
  const screen = await (await browser.newContext()).newPage();
  await signIn(host, DEMO_ADMIN);
  await host.goto(`/event/${id}`);
  await host
    .getByRole("form", { name: "Open tonight's list" })
    .getByRole("button", { name: "Open tonight's list" })
    .click();
  const running = host.getByRole("list", { name: "Running order" });

  // Sign-up with the name left blank: before, the list showed the email's local part.
  const localPart = `pat.${tok}`;
  await signUp(comedian, { name: "", email: `${localPart}@example.com` });
  await comedian.getByRole("button", { name: "Skip onboarding" }).click();
  await comedian.goto(`/event/${id}`);
  await comedian.getByRole("button", { name: "Sign up for tonight" }).click();

  const dialog = comedian.getByRole("dialog", { name: "Your stage name" });
  await expect(dialog.getByText(STAGE_NAME_REQUIRED_MESSAGE, { exact: false })).toBeVisible();
  await dialog.getByLabel("Stage name", { exact: true }).fill("comedian");
  await dialog.getByRole("button", { name: "Save and sign up" }).click();
  await expect(dialog.getByText(DEFAULT_STAGE_NAME_MESSAGE)).toBeVisible();
  await dialog.getByLabel("Stage name", { exact: true }).fill("  Pat   Punchline ");
  await dialog.getByRole("button", { name: "Save and sign up" }).click();
  await expect(dialog).toHaveCount(0);

  await expect(running.getByText("Pat Punchline")).toBeVisible(LIVE);
  await expect(comedian.getByRole("status").filter({ hasText: /^You/ })).toBeVisible(LIVE);
  await screen.goto(`/event/${id}/list/screen`);
  await expect(screen.getByText("Pat Punchline").first()).toBeVisible(LIVE);
  for (const page of [host, comedian, screen]) {
    await expect(page.locator("body")).not.toContainText(localPart);
  }
  for (const page of [host, comedian, screen]) await page.context().close();
});
