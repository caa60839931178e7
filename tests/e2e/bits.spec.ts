import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { logSet } from "./support/logSet";
import { createOpenMic } from "./support/scene";
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
    // Readable from the stage: light type of at least 48 px on a dark page.
    const look = await page
      .getByRole("list", { name: "The set" })
      .getByText("Airport security")
      .evaluate((el) => {
        const luminance = (css: string) => {
          const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
          return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        };
        let bg = el as Element | null;
        while (bg && getComputedStyle(bg).backgroundColor.replace(/\s/g, "").endsWith(",0)")) bg = bg.parentElement;
        return {
          fontPx: parseFloat(getComputedStyle(el).fontSize),
          text: luminance(getComputedStyle(el).color),
          background: luminance(getComputedStyle(bg ?? document.body).backgroundColor),
        };
      });
    expect(look.fontPx).toBeGreaterThanOrEqual(48);
    expect(look.background).toBeLessThan(0.2);
    expect(look.text).toBeGreaterThan(0.8);
  });
});

test.describe("set list order on a phone", () => {
  test.describe.configure({ timeout: 150_000 });

  test("one thumb drags a bit to a new place (hold, then drag); the keyboard does it too; the order is saved", async ({
    browser,
    signUp,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await signUp(page, { name: "Tess Touch" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/bits");
    for (const title of ["Opener", "Middle", "Closer"]) {
      await page.getByRole("button", { name: "New bit" }).first().click();
      const form = page.getByRole("form", { name: "New bit" });
      await form.getByLabel("Title").fill(title);
      await form.getByRole("button", { name: "Add bit" }).click();
      await expect(toast(page, "Bit added").first()).toBeVisible();
    }
    await page.goto("/set-lists");
    await page.getByRole("button", { name: "New set list" }).first().click();
    await page.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Thumb set");
    await page.getByRole("button", { name: "Create" }).click();
    for (const title of ["Opener", "Middle", "Closer"])
      await page.getByRole("button", { name: `Add ${title}` }).click();
    const order = page.getByRole("list", { name: "Running order" });
    const names = () =>
      order.getByRole("listitem").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));
    await expect.poll(names).toEqual(["1. Opener", "2. Middle", "3. Closer"]);

    // Real touch input (Chromium's touch events, which the page sees as pointer events of type "touch").
    const cdp = await context.newCDPSession(page);
    const touch = async (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
      await cdp.send("Input.dispatchTouchEvent", {
        type,
        touchPoints: type === "touchEnd" ? [] : [{ x, y, radiusX: 4, radiusY: 4, force: 1, id: 1 }],
      });
    const handle = await page.getByRole("button", { name: "Drag Closer" }).boundingBox();
    const target = await order.getByRole("listitem").first().boundingBox();
    const x = handle!.x + handle!.width / 2;
    const fromY = handle!.y + handle!.height / 2;
    const toY = target!.y + target!.height / 4;
    await touch("touchStart", x, fromY);
    // The bit lifts once the thumb has rested on its handle.
    await expect(order.locator('li[data-dragging="true"]')).toHaveAccessibleName("3. Closer");
    for (let i = 1; i <= 8; i++) await touch("touchMove", x, fromY + ((toY - fromY) * i) / 8);
    await touch("touchEnd", x, toY);
    await expect.poll(names).toEqual(["1. Closer", "2. Opener", "3. Middle"]);

    // The keyboard: Space lifts, an arrow moves, Space drops.
    await page.getByRole("button", { name: "Drag Middle" }).focus();
    await page.keyboard.press("Space");
    await expect(page.getByRole("status").filter({ hasText: "Middle: position 3 of 3" })).toBeAttached();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Space");
    await expect.poll(names).toEqual(["1. Closer", "2. Middle", "3. Opener"]);

    // Saved, not just shown: a reload keeps the order.
    await page.reload();
    await expect.poll(names).toEqual(["1. Closer", "2. Middle", "3. Opener"]);
    await context.close();
  });
});

test.describe("material from empty, and afterwards", () => {
  test.describe.configure({ timeout: 150_000 });

  test("an empty library and set say what to do; bits done without a set list are found by search and rated on the set", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const tok = `zr${randomUUID().slice(0, 6)}`;
    await createOpenMic(runFunction, `After Mic ${tok}`, "After Room");
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page, { name: "Ali After" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A set list made before any bit: the builder and the stage say so, each with a way on.
    await page.goto("/set-lists");
    await page.getByRole("button", { name: "New set list" }).first().click();
    await page.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Someday");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Someday" })).toBeVisible();
    await expect(page.getByText("Your library has no bits yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Add bits on the Bits page" })).toHaveAttribute("href", "/bits");
    await page.getByRole("link", { name: "Stage view" }).click();
    await expect(page.getByRole("heading", { name: "No bits in this set yet" })).toBeVisible();
    await page.getByRole("link", { name: "Add bits" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Someday" })).toBeVisible();
    await page.goto("/set-lists/not-a-set-list/stage");
    await expect(page.getByRole("heading", { name: "Set list not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "All set lists" })).toHaveAttribute("href", "/set-lists");

    // A set logged in the wizard, with no set list: its bits are added afterwards, found by search.
    await logSet(page, `After Room ${tok}`, 5);
    await page.goto("/performance-history");
    await page
      .getByRole("link", { name: /^Bits of the set on / })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Bits of this set" })).toBeVisible();
    await expect(page.getByText("Your library has no bits yet.")).toBeVisible();
    await page.goto("/bits");
    for (const title of ["Airport security", "Dentist", "Zebra crossing"]) {
      await page.getByRole("button", { name: "New bit" }).first().click();
      const form = page.getByRole("form", { name: "New bit" });
      await form.getByLabel("Title").fill(title);
      await form.getByRole("button", { name: "Add bit" }).click();
      await expect(toast(page, "Bit added").first()).toBeVisible();
    }
    await page.goto("/performance-history");
    await page
      .getByRole("link", { name: /^Bits of the set on / })
      .first()
      .click();
    const toAdd = page.getByRole("list", { name: "Bits to add" });
    await expect(toAdd.getByRole("listitem")).toHaveCount(3);
    await page.getByRole("searchbox", { name: "Search your bits to add" }).fill("zebra");
    await expect(toAdd.getByRole("listitem")).toHaveCount(1);
    await toAdd.getByRole("button", { name: "Add Zebra crossing" }).click();
    await page.getByRole("searchbox", { name: "Search your bits to add" }).fill("");
    // What is already on the set is not offered again.
    await expect(toAdd.getByRole("listitem")).toHaveCount(2);
    await toAdd.getByRole("button", { name: "Add Dentist" }).click();
    const rows = page.getByRole("list", { name: "Bits of the set" });
    await rows.getByRole("listitem", { name: "Zebra crossing" }).getByRole("radio", { name: "Landed" }).click();
    await rows.getByRole("listitem", { name: "Dentist" }).getByRole("radio", { name: "Flat" }).click();
    await page.getByRole("button", { name: "Save ratings" }).click();
    await expect(toast(page, "Ratings saved")).toBeVisible();
    await expect(page.getByText("1 of 2 landed")).toBeVisible();
    await expect(page.getByRole("list", { name: "Rated bits" }).getByRole("listitem")).toHaveCount(2);

    await page.goto("/sets/not-a-set/bits");
    await expect(page.getByRole("heading", { name: "Set not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Performance History" })).toHaveAttribute(
      "href",
      "/performance-history",
    );
  });
});
