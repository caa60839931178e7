import type { Browser } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Run } from "./support/scene";
import { type MicFields, card, createMic, searchScene, token } from "./support/sceneList";
import { encodeGeohash } from "@convex/lib/geo";

/** A browser context without IntersectionObserver: only 'Show more' reveals more cards, so its effect is seen alone. */
async function contextWithoutScrollReveal(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context = await browser.newContext(options);
  await context.addInitScript(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });
  return context;
}

/** Inserts `count` mics whose titles carry the token, a few CLI calls at a time;
 * `perMic` adds fields by the mic's index (0-based). */
async function createMany(
  runFunction: Run,
  tok: string,
  count: number,
  fields: Partial<MicFields> = {},
  perMic: (index: number) => Partial<MicFields> = () => ({}),
): Promise<string[]> {
  const titles = Array.from({ length: count }, (_, i) => `Many Mic ${String(i + 1).padStart(2, "0")} ${tok}`);
  for (let i = 0; i < titles.length; i += 6) {
    await Promise.all(
      titles.slice(i, i + 6).map((title, j) =>
        createMic(runFunction, {
          venueName: `Hall ${tok}`,
          city: "Newark",
          ...fields,
          // About 1.1 km apart, so each mic has its own geohash cell.
          ...(fields.latitude !== undefined ? { latitude: fields.latitude + (i + j) * 0.01 } : {}),
          ...perMic(i + j),
          title,
        }),
      ),
    );
  }
  return titles;
}

test.describe("a long list renders a page at a time", () => {
  test.describe.configure({ timeout: 120_000 });

  test("with more than 24 matches only 24 cards render first; Show more and scrolling reveal the rest", async ({
    browser,
    page,
    runFunction,
  }) => {
    const tok = token();
    await createMany(runFunction, tok, 30);

    const context = await contextWithoutScrollReveal(browser);
    const noScroll = await context.newPage();
    await noScroll.goto("/scene");
    await searchScene(noScroll, tok);
    const cards = noScroll.getByRole("article");
    const count = noScroll.getByTestId("result-count");
    // The server sends the first page of 24; how many more there are is not known yet.
    // (The unfiltered scene's first page reads the same: wait for the search's cards.)
    await expect(noScroll.getByRole("article", { name: new RegExp(tok) })).toHaveCount(24);
    await expect(count).toHaveText("Showing 24 events so far");
    await expect(cards).toHaveCount(24);

    // From the keyboard: the next page comes, the count says so and focus lands on the first new card.
    const showMore = noScroll.getByRole("button", { name: "Show more", exact: true });
    await showMore.focus();
    await noScroll.keyboard.press("Enter");
    await expect(cards).toHaveCount(30);
    await expect(count).toHaveText("30 events");
    await expect(showMore).toHaveCount(0);
    await expect(cards.nth(24)).toBeFocused();

    // Changing a filter starts again at 24.
    await noScroll.getByRole("group", { name: "Event type" }).getByRole("button", { name: "Open Mic" }).click();
    await expect(count).toHaveText("Showing 24 events so far");
    await expect(cards).toHaveCount(24);
    await showMore.click();
    await expect(cards).toHaveCount(30);
    await context.close();

    // With IntersectionObserver, scrolling to the end of the list reveals the rest.
    await page.goto("/scene");
    await searchScene(page, tok);
    await expect(page.getByRole("article", { name: new RegExp(tok) })).toHaveCount(24);
    await expect(page.getByTestId("result-count")).toHaveText("Showing 24 events so far");
    await expect(page.getByRole("article")).toHaveCount(24);
    await page.getByRole("article").last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    await expect(page.getByRole("article")).toHaveCount(30);
    await expect(page.getByRole("button", { name: "Show more", exact: true })).toHaveCount(0);
  });

  test("with the distance filter off, the scene comes from the server a page at a time; search finds a mic past the first page", async ({
    browser,
    runFunction,
  }) => {
    const tok = token();
    // 30 mics in the first minutes of Sunday, the start of the week's order.
    const titles = await createMany(runFunction, tok, 30, { dayOfWeek: 0 }, (i) => ({
      startTimeLocal: `00:${String(i).padStart(2, "0")}`,
    }));
    // And one on Saturday night, the end of the order, with a word of its own.
    const lateTok = token();
    const late = `Last Call ${lateTok}`;
    await createMic(runFunction, {
      title: late,
      venueName: `Nightcap ${lateTok}`,
      city: "Hoboken",
      dayOfWeek: 6,
      startTimeLocal: "23:59",
    });

    const context = await contextWithoutScrollReveal(browser);
    const page = await context.newPage();
    const cards = page.getByRole("article");
    const count = page.getByTestId("result-count");
    await page.goto("/scene");
    await page.getByRole("group", { name: "Day" }).getByRole("button", { name: "Sun" }).click();
    await expect(count).toHaveText("Showing 24 events so far");
    await expect(cards).toHaveCount(24);
    // Other tests may add a Sunday-midnight mic of their own (onboarding does, on a Sunday), which
    // can sort among ours: so this test's cards are checked in order among themselves.
    const ours = page.getByRole("article", { name: new RegExp(tok) });
    await expect(ours.first()).toHaveAccessibleName(titles[0]);
    const firstPage = await ours.count();
    expect(firstPage).toBeGreaterThanOrEqual(20);
    expect(firstPage).toBeLessThanOrEqual(24);
    await expect(ours.nth(firstPage - 1)).toHaveAccessibleName(titles[firstPage - 1]);
    await expect(card(page, titles[29])).toHaveCount(0);
    // 'Show more' asks the server for the next page.
    await page.getByRole("button", { name: "Show more", exact: true }).click();
    await expect(ours).toHaveCount(30);
    await expect(ours.nth(firstPage)).toHaveAccessibleName(titles[firstPage]);
    await expect(ours.nth(29)).toHaveAccessibleName(titles[29]);

    // The whole week: the Saturday mic is far past the first page...
    await page.getByRole("group", { name: "Day" }).getByRole("button", { name: "All" }).click();
    await expect(count).toHaveText("Showing 24 events so far");
    await expect(card(page, late)).toHaveCount(0);
    // ...and the search finds it on the server, typed a key at a time.
    await page.getByLabel("Search mics, venues or cities").pressSequentially(`nightcap ${lateTok}`, { delay: 20 });
    await expect(page.getByLabel("Search mics, venues or cities")).toHaveValue(`nightcap ${lateTok}`);
    await expect(page.getByLabel("Search mics, venues or cities")).toBeFocused();
    await expect(cards).toHaveCount(1);
    await expect(card(page, late)).toBeVisible();
    await expect(count).toHaveText("1 event");
    await expect(page.getByTestId("scene-results")).toHaveAttribute("aria-busy", "false");
    await context.close();
  });

  test("with the distance filter on, the area's mics load 24 at a time", async ({ browser, runFunction }) => {
    // A spot of our own in the Dakota badlands, so no other test's mics are in the circle.
    const here = { latitude: 43.5 + Math.random() * 0.5, longitude: -102.5 - Math.random() * 0.5 };
    const tok = token();
    await createMany(runFunction, tok, 30, { latitude: here.latitude + 0.01, longitude: here.longitude + 0.01 });

    const context = await contextWithoutScrollReveal(browser, { geolocation: here, permissions: ["geolocation"] });
    const page = await context.newPage();
    await page.goto("/scene");
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(page.getByText("Within 25 miles")).toBeVisible();
    const cards = page.getByRole("article");
    const count = page.getByTestId("result-count");
    // The first page holds 24 of the 30; how many more there are is not known yet.
    await expect(count).toHaveText("Showing 24 events nearby so far");
    await expect(cards).toHaveCount(24);
    await page.getByRole("button", { name: "Show more", exact: true }).click();
    await expect(cards).toHaveCount(30);
    await expect(count).toHaveText("30 events");
    await expect(page.getByRole("button", { name: "Show more", exact: true })).toHaveCount(0);

    // Search applies to the loaded pages.
    await searchScene(page, `Many Mic 07 ${tok}`);
    await expect(cards).toHaveCount(1);
    await expect(count).toHaveText("1 event of 30");
    await context.close();
  });

  test("30 mics at one spot page without repeats, and a mic added earlier in the order drops none", async ({
    browser,
    runFunction,
  }) => {
    // Another spot of our own, further south in the badlands.
    const here = { latitude: 42.6 + Math.random() * 0.3, longitude: -103.0 - Math.random() * 0.3 };
    const spot = { latitude: here.latitude + 0.005, longitude: here.longitude + 0.005 };
    const tok = token();
    // All 30 share one geohash cell, so the page boundary falls inside the cell.
    const titles = await createMany(runFunction, tok, 30, {}, () => spot);

    const context = await contextWithoutScrollReveal(browser, { geolocation: here, permissions: ["geolocation"] });
    const page = await context.newPage();
    await page.goto("/scene");
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    const cards = page.getByRole("article");
    await expect(page.getByTestId("result-count")).toHaveText("Showing 24 events nearby so far");
    await page.getByRole("button", { name: "Show more", exact: true }).click();
    await expect(page.getByTestId("result-count")).toHaveText("30 events");
    const shownTitles = async () => (await cards.locator("h3").allTextContents()).map((t) => t.trim());
    expect((await shownTitles()).sort()).toEqual([...titles].sort());

    // A mic whose geohash sorts before the spot's lands on the first page: the
    // first page keeps its end, so no mic falls between the pages.
    const spotHash = encodeGeohash(spot.latitude, spot.longitude);
    let early = { latitude: spot.latitude - 0.02, longitude: spot.longitude - 0.02 };
    for (let i = 1; encodeGeohash(early.latitude, early.longitude) >= spotHash; i++) {
      early = { latitude: spot.latitude - 0.02 * i, longitude: spot.longitude - 0.02 * i };
    }
    const earlyTitle = `Early Mic ${tok}`;
    await createMic(runFunction, { title: earlyTitle, venueName: `Hall ${tok}`, city: "Newark", ...early });
    await expect(page.getByTestId("result-count")).toHaveText("31 events");
    const after = await shownTitles();
    expect(after.sort()).toEqual([...titles, earlyTitle].sort());
    await context.close();
  });
});
