import path from "node:path";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";
import { createOpenMic } from "./support/scene";
import { toast } from "./support/ui";

/**
 * The README's material images: "How did it go?" after a live-list set, and the bit page's numbers.
 * Not part of `npm test`: `E2E_SCREENSHOTS=1 npx playwright test tests/e2e/bits.screenshots.spec.ts`.
 */
test.describe("README screenshots, material @screenshots", () => {
  test.describe.configure({ timeout: 240_000 });

  test("the rating prompt and the bit page", async ({ browser, signUp, signIn, runFunction }) => {
    const tok = randomUUID().slice(0, 4);
    const title = `Tuesday Tryouts ${tok}`;
    const id = await createOpenMic(runFunction, title, "The Basement");
    const host = await (await browser.newContext()).newPage();
    await signIn(host, DEMO_ADMIN);
    await host.goto(`/event/${id}`);
    await host
      .getByRole("form", { name: "Open tonight's list" })
      .getByRole("button", { name: "Open tonight's list" })
      .click();

    const context = await browser.newContext({
      viewport: { width: 390, height: 1000 },
      colorScheme: "light",
      timezoneId: "America/New_York",
    });
    const page = await context.newPage();
    const name = `Rae Rivera ${tok}`;
    await signUp(page, { name });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await page.goto("/bits");
    for (const [bit, length, tags] of [
      ["Airport security", "1:30", "travel"],
      ["My dentist's hobbies", "0:45", "medical"],
      ["Group chat etiquette", "2:00", "phones"],
    ] as const) {
      await page.getByRole("button", { name: "New bit" }).first().click();
      const form = page.getByRole("form", { name: "New bit" });
      await form.getByLabel("Title").fill(bit);
      await form.getByLabel("Tags").fill(tags);
      await form.getByLabel("Estimated length").fill(length);
      await form.getByRole("button", { name: "Add bit" }).click();
      await expect(toast(page, "Bit added").first()).toBeVisible();
    }
    await page.goto(`/event/${id}`);
    await page.getByRole("button", { name: "Sign up for tonight" }).click();
    await page.goto("/set-lists");
    await page.getByRole("button", { name: "New set list" }).first().click();
    await page.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Tryout five");
    await page.getByRole("button", { name: "Create" }).click();
    for (const bit of ["Airport security", "My dentist's hobbies", "Group chat etiquette"]) {
      await page.getByRole("button", { name: `Add ${bit}` }).click();
    }
    await expect(page.getByRole("list", { name: "Running order" }).getByRole("listitem")).toHaveCount(3);
    await page.getByRole("button", { name: "Attach to a night" }).click();
    const attach = page.getByRole("dialog", { name: "Attach to a night" });
    await attach.getByRole("combobox", { name: "Night" }).click();
    await page.getByRole("option", { name: new RegExp(`^Your spot at ${title}`) }).click();
    await attach.getByRole("button", { name: "Attach" }).click();
    await expect(toast(page, "Set list attached")).toBeVisible();

    await host.getByRole("button", { name: `${name} is up now` }).click();
    await host.getByRole("button", { name: `${name}'s set is done`, exact: true }).click();

    await page.goto("/dashboard");
    const prompt = page.getByRole("region", { name: "How did it go?" });
    await expect(prompt).toBeVisible({ timeout: 10_000 });
    const rows = prompt.getByRole("list", { name: "Bits of the set" });
    const row = (bit: string) => rows.getByRole("listitem", { name: bit });
    await row("Airport security").getByRole("radio", { name: "Landed" }).click();
    await row("Airport security").getByRole("button", { name: "Add a note on Airport security" }).click();
    await row("Airport security").getByRole("textbox").fill("The shoes tag killed");
    await row("My dentist's hobbies").getByRole("radio", { name: "Okay" }).click();
    await row("Group chat etiquette").getByRole("radio", { name: "Flat" }).click();
    await row("Group chat etiquette").getByRole("checkbox", { name: "Cut it" }).click();
    await expect(page.getByText(/^Your set at .* was logged$/)).toHaveCount(0, { timeout: 15_000 });
    await prompt.screenshot({ path: path.join(repoRoot, "docs/screenshots/bits-rating-prompt.png") });
    await prompt.getByRole("button", { name: "Save ratings" }).click();
    await expect(toast(page, "Ratings saved")).toBeVisible();

    await page.goto("/bits");
    await page
      .getByRole("list", { name: "Your bits" })
      .getByRole("link", { name: /Airport security/ })
      .click();
    await expect(page.getByRole("group", { name: "Times performed", exact: true })).toContainText("1");
    await expect(page.getByLabel("Rooms")).toContainText(title);
    await expect(page.getByText("Ratings saved")).toHaveCount(0, { timeout: 15_000 });
    await page.screenshot({ path: path.join(repoRoot, "docs/screenshots/bit-page.png"), fullPage: true });
    await host.context().close();
    await context.close();
  });
});
