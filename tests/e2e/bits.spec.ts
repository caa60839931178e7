import { expect, test } from "./fixtures";
import { toast } from "./support/ui";

test.describe("material", () => {
  test.describe.configure({ timeout: 150_000 });

  test("build a bit library and a set list at 390 px", async ({ page, signUp }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page, { name: "Bea Bits" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole("link", { name: "Bits" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Bits" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "No bits yet" })).toBeVisible();

    for (const [title, tags, length] of [
      ["Airport security", "travel", "1:30"],
      ["Dentist", "medical", "45"],
    ] as const) {
      await page.getByRole("button", { name: "New bit" }).first().click();
      const form = page.getByRole("form", { name: "New bit" });
      await form.getByLabel("Title").fill(title);
      await form.getByLabel("Tags").fill(tags);
      await form.getByLabel("Estimated length").fill(length);
      await form.getByRole("button", { name: "Add bit" }).click();
      await expect(toast(page, "Bit added").first()).toBeVisible();
    }
    const bits = page.getByRole("list", { name: "Your bits" });
    await expect(bits.getByRole("listitem")).toHaveCount(2);

    await page.getByRole("searchbox", { name: "Search bits" }).fill("airport");
    await expect(bits.getByRole("listitem")).toHaveCount(1);
    await expect(bits.getByRole("listitem", { name: "Airport security" })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search bits" }).fill("");
    await expect(bits.getByRole("listitem")).toHaveCount(2);

    await page.getByRole("link", { name: "Set lists" }).click();
    await page.getByRole("button", { name: "New set list" }).first().click();
    await page.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Tuesday five");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tuesday five" })).toBeVisible();

    await page.getByRole("button", { name: "Add Dentist" }).click();
    await page.getByRole("button", { name: "Add Airport security" }).click();
    const order = page.getByRole("list", { name: "Running order" });
    await expect(order.getByRole("listitem")).toHaveCount(2);
    await expect(order.getByRole("listitem").first()).toHaveAccessibleName("1. Dentist");
    await page.getByRole("button", { name: "Move Airport security up" }).click();
    await expect(order.getByRole("listitem").first()).toHaveAccessibleName("1. Airport security");
    await expect(page.getByRole("group", { name: "Estimated length" })).toContainText("2:15");

    await page.getByRole("link", { name: "Stage view" }).click();
    await expect(page.getByRole("list", { name: "The set" })).toContainText("1. Airport security");
    await expect(page.getByRole("navigation")).toHaveCount(0);
  });
});
