import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";

test.use({ timezoneId: "America/New_York", viewport: { width: 390, height: 844 } });

test.describe("a season in review", () => {
  test.describe.configure({ timeout: 180_000 });

  test("last year's numbers after seeded sets, a card image, and a public link that shows only the chosen figures until revoked", async ({
    page,
    browser,
    signUp,
    runFunction,
  }) => {
    const { email } = await signUp(page, { name: "Sasha Season" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const lastYear = new Date().getFullYear() - 1;
    const title = `Season Cellar ${randomUUID().slice(0, 8)}`;
    const micId = await runFunction<string>("fixtures:insertSceneItem", {
      title,
      venueName: title,
      city: "Chicago",
      latitude: 41.88,
      longitude: -87.63,
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      timeZone: "America/Chicago",
    });
    // Three nights in a row at the mic in March, one set elsewhere in April.
    await runFunction("fixtures:insertSeasonSets", {
      email,
      sets: [
        { date: `${lastYear}-03-04`, minutes: 5, micId },
        { date: `${lastYear}-03-05`, minutes: 6, micId },
        { date: `${lastYear}-03-06`, minutes: 7, micId },
        { date: `${lastYear}-04-01`, minutes: 8, venueName: "The Basement" },
      ],
    });

    await page.getByRole("link", { name: /Your season in review/ }).click();
    await expect(page).toHaveURL(/\/season$/);
    await expect(page.getByRole("heading", { level: 1, name: "Season in review" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "No sets in this period" })).toBeVisible();

    await page.getByRole("radio", { name: "Last year" }).click();
    await expect(page).toHaveURL(new RegExp(`from=${lastYear}-01&to=${lastYear}-12`));
    const tile = (label: string) => page.getByRole("group", { name: label, exact: true });
    await expect(tile("Sets")).toContainText("4");
    await expect(tile("Minutes")).toContainText("26");
    await expect(tile("Mics")).toContainText("2");
    await expect(tile("Cities")).toContainText("1");
    await expect(tile("Longest day streak")).toContainText("3 days");
    await expect(tile("Busiest month")).toContainText(`March ${lastYear}`);
    const most = page.getByRole("region", { name: "Where you got up most" });
    await expect(most.getByRole("link", { name: title })).toBeVisible();
    await expect(most).toContainText(`${title} · Chicago`);
    await expect(most).toContainText("3 sets");
    await expect(most).toContainText("The Basement");
    await expect(page.getByRole("img", { name: "Map of where you performed: 1 venue" })).toBeVisible();
    // Readable at 390 px: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The card is drawn in the browser and saved as a PNG.
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download card" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`stagetime-season-${lastYear}-01-to-${lastYear}-12.png`);
    const png = await readFile((await download.path())!);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // 1200 x 630, from the PNG header.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(png.length).toBeGreaterThan(10_000);

    // A custom range is checked before it is asked for.
    await page.getByRole("radio", { name: "Custom" }).click();
    await page.getByLabel("From month").fill(`${lastYear}-05`);
    await page.getByLabel("To month").fill(`${lastYear}-03`);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByText("The end month must not be before the start month.")).toBeVisible();
    await page.getByLabel("From month").fill(`${lastYear}-03`);
    await page.getByLabel("To month").fill(`${lastYear}-03`);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(tile("Sets")).toContainText("3");
    await expect(page.getByText(`Mar ${lastYear}`, { exact: true })).toBeVisible();

    // Private by default; a link shows sets and the mics, not the minutes or the name.
    const links = page.getByRole("region", { name: "Public links" });
    await expect(links).toContainText("Your season is private.");
    await links.getByRole("button", { name: "Make a public link" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a public link" });
    await dialog.getByRole("checkbox", { name: "Minutes on stage" }).click();
    await dialog.getByRole("checkbox", { name: "Sets" }).click();
    await dialog.getByRole("button", { name: "Make link" }).click();
    await expect(dialog.getByText("Choose at least one number to show.")).toBeVisible();
    await dialog.getByRole("checkbox", { name: "Sets" }).click();
    await dialog.getByRole("checkbox", { name: "Mics I got up at most" }).click();
    await dialog.getByRole("button", { name: "Make link" }).click();
    await expect(dialog).toBeHidden();
    const url = (await links.getByTestId("share-link").textContent())!;
    expect(url).toMatch(/\/season\/shared\/[A-Za-z0-9_-]{43}$/);

    const stranger = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const publicPage = await stranger.newPage();
    await publicPage.goto(url);
    await expect(publicPage.getByRole("heading", { level: 1, name: "A comedian's season" })).toBeVisible();
    await expect(publicPage.getByRole("group", { name: "Sets", exact: true })).toContainText("3");
    await expect(publicPage.getByRole("region", { name: "Where you got up most" })).toContainText(title);
    await expect(publicPage.getByRole("group", { name: "Minutes", exact: true })).toHaveCount(0);
    await expect(publicPage.getByRole("group", { name: "Mics", exact: true })).toHaveCount(0);
    await expect(publicPage.getByText("Sasha Season")).toHaveCount(0);

    await links.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke link" }).click();
    await expect(links).toContainText("Your season is private.");
    await publicPage.reload();
    await expect(publicPage.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
    await stranger.close();
  });
});
