import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { readState } from "./support/state";
import { toast } from "./support/ui";

/** The reset code the local backend logged for this address (it logs codes without an email key). */
async function codeFromBackendLog(email: string): Promise<string> {
  const line = new RegExp(`Password reset code for ${email.replace(/[.+]/g, "\\$&")}: (\\d{8})`, "g");
  let code: string | undefined;
  await expect
    .poll(() => {
      const found = [...fs.readFileSync(readState().backendLog, "utf8").matchAll(line)];
      code = found.at(-1)?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

async function openForgotPassword(page: Page) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign In" }).click();
  await page.getByRole("button", { name: "Forgot password?" }).click();
  return page.getByRole("dialog", { name: "Reset your password" });
}

test("forgot password: a code from the email resets it once and signs the comedian in", async ({
  browser,
  signUp,
  signIn,
}) => {
  const first = await browser.newContext();
  const creds = await signUp(await first.newPage());
  await first.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  const dialog = await openForgotPassword(page);
  await dialog.getByLabel("Email", { exact: true }).fill(creds.email);
  await dialog.getByRole("button", { name: "Send code" }).click();
  await expect(dialog).toContainText(`If ${creds.email} has an account, a code is on its way`);
  const code = await codeFromBackendLog(creds.email);

  const wrong = code === "00000000" ? "11111111" : "00000000";
  await dialog.getByLabel("Code", { exact: true }).fill(wrong);
  await dialog.getByLabel("New password", { exact: true }).fill("brand-new-secret");
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(toast(page, "That code is wrong or has expired. Ask for a new one.")).toBeVisible();

  await dialog.getByLabel("Code", { exact: true }).fill(code);
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(toast(page, "Password changed")).toBeVisible();
  await expect(page).not.toHaveURL(/\/auth/, { timeout: 20_000 });
  await context.close();

  // The new password signs in.
  const later = await browser.newContext();
  await signIn(await later.newPage(), { email: creds.email, password: "brand-new-secret" });
  await later.close();
});
