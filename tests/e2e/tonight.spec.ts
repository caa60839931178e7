import type { Browser, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { createNight, nowInZone, skipNearMidnight } from "./support/scene";
import { card, showSceneFilters } from "./support/sceneList";
import { toast } from "./support/ui";

// Several browsers per test on a small shared machine.
test.describe.configure({ timeout: 120_000 });

const NY = "America/New_York";
const MINUTE = 60_000;

/** A browser in New York time (Tonight without a location covers the viewer's time zone). */
async function newYorkPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ timezoneId: NY, ...(viewport ? { viewport } : {}) });
  return await context.newPage();
}

/** /scene searching for the test's token: Tonight shows only this test's mics. */
async function openTonight(page: Page, tok: string) {
  await page.goto("/scene");
  await showSceneFilters(page);
  await page.getByLabel("Search mics, venues or cities").fill(tok);
}

function tonightList(page: Page) {
  return page.getByTestId("tonight").getByRole("list", { name: "On tonight" });
}

function nights(page: Page) {
  return tonightList(page).getByTestId("tonight-night");
}

test("a signed-out visitor sees tonight's mics in start order with list and start times", async ({
  browser,
  runFunction,
}) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  await createNight(runFunction, `Late ${tok}`, 60);
  await createNight(runFunction, `Now ${tok}`, 0, { listTimeLocal: nowInZone(NY, -30 * MINUTE).hhmm });
  await createNight(runFunction, `Soon ${tok}`, 20);
  // Another day's mic is not on tonight.
  await createNight(runFunction, `Tomorrow ${tok}`, 24 * 60);

  const page = await newYorkPage(browser, { width: 375, height: 800 });
  await openTonight(page, tok);
  await expect(nights(page)).toHaveCount(3);
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Now ${tok}`, `Soon ${tok}`, `Late ${tok}`]);
  await expect(nights(page).first().getByTestId("tonight-times")).toHaveText(
    /^List \d{1,2}:\d{2} [AP]M · Starts \d{1,2}:\d{2} [AP]M$/,
  );
  await expect(
    nights(page)
      .nth(1)
      .getByText(/starts in (19|20) min/),
  ).toBeVisible();
  // 375 px: nothing wider than the screen, and no serious accessibility violations.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.context().close();
});

test("a mic with several nights of lists shows its numbers in short on its Tonight row and its scene card", async ({
  browser,
  runFunction,
}) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  const title = `Numbers ${tok}`;
  const id = await createNight(runFunction, title, 40, { listTimeLocal: nowInZone(NY, 10 * MINUTE).hhmm });
  const fresh = `Fresh ${tok}`;
  await createNight(runFunction, fresh, 50);
  // Four past nights, each with its first set 15 minutes after the listed start.
  await runFunction("fixtures:insertMicNights", { micId: id, nights: 4, spots: 5, signUps: 8, firstSetLate: 15 });

  const page = await newYorkPage(browser);
  await openTonight(page, tok);
  await expect(nights(page)).toHaveCount(2);
  await expect(nights(page).filter({ hasText: title })).toContainText(/first set ~15 min late/i);
  // A mic without enough nights says nothing rather than a guess.
  await expect(nights(page).filter({ hasText: fresh })).not.toContainText(/late|on time|runs \d/i);
  await expect(card(page, title)).toContainText(/first set ~15 min late/i);
  await expect(card(page, fresh)).not.toContainText(/late|on time|runs \d/i);
  await page.context().close();
});

test("a claimant confirms tonight and another open browser shows Host confirmed tonight within a second", async ({
  browser,
  runFunction,
  signIn,
}) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  const title = `Confirm ${tok}`;
  const id = await createNight(runFunction, title, 30);

  const host = await newYorkPage(browser);
  await signIn(host, DEMO_COMEDIAN);
  await runFunction("fixtures:approveClaim", { micId: id, email: DEMO_COMEDIAN.email });
  const visitor = await newYorkPage(browser);
  await openTonight(visitor, tok);
  const night = nights(visitor).filter({ hasText: title });
  await expect(night).toBeVisible();
  await expect(night.getByText("Host confirmed tonight")).toHaveCount(0);

  await host.goto(`/event/${id}`);
  await host.getByRole("button", { name: "Confirm tonight" }).click();
  await expect(night.getByText("Host confirmed tonight")).toBeVisible({ timeout: 1000 });
  await expect(host.getByText("Host confirmed tonight").first()).toBeVisible();
  // The freshness badge counts the host's confirmation.
  await expect(night.getByTestId("freshness")).toHaveAttribute("data-grade", "fresh");
  for (const p of [host, visitor]) await p.context().close();
});

test("a cancelled night moves last and greys out", async ({ browser, runFunction, signIn }) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  const first = await createNight(runFunction, `First ${tok}`, 10);
  await createNight(runFunction, `Second ${tok}`, 40);

  const host = await newYorkPage(browser);
  await signIn(host, DEMO_COMEDIAN);
  await runFunction("fixtures:approveClaim", { micId: first, email: DEMO_COMEDIAN.email });
  const visitor = await newYorkPage(browser);
  await openTonight(visitor, tok);
  await expect(nights(visitor).getByTestId("tonight-title")).toHaveText([`First ${tok}`, `Second ${tok}`]);

  await host.goto(`/event/${first}`);
  await host.getByRole("button", { name: "Cancel this night" }).click();
  await host.getByRole("alertdialog").getByRole("button", { name: "Cancel this night" }).click();
  await expect(nights(visitor).getByTestId("tonight-title")).toHaveText([`Second ${tok}`, `First ${tok}`]);
  const cancelled = nights(visitor).last();
  await expect(cancelled).toHaveAttribute("data-cancelled", "true");
  await expect(cancelled.getByText("Cancelled tonight")).toBeVisible();
  expect(
    Number(
      await cancelled
        .locator("> *")
        .first()
        .evaluate((el) => getComputedStyle(el).opacity),
    ),
  ).toBeLessThan(1);
  for (const p of [host, visitor]) await p.context().close();
});

test("filters narrow tonight's list: free only, sign-up method, time of day", async ({ browser, runFunction }) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  await createNight(runFunction, `Free ${tok}`, 10);
  await createNight(runFunction, `Paid ${tok}`, 20, { costInfo: { type: "cover", coverAmount: 5 } });
  await createNight(runFunction, `Online ${tok}`, 30, { signupMethod: "online" });

  const page = await newYorkPage(browser);
  await openTonight(page, tok);
  await expect(nights(page)).toHaveCount(3);
  await page.getByRole("switch", { name: "Free only" }).click();
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Free ${tok}`, `Online ${tok}`]);
  await page.getByRole("group", { name: "Sign-up" }).getByRole("button", { name: "Online" }).click();
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Online ${tok}`]);
  // The time of day that does not hold now: nothing is on tonight for it.
  const { hhmm } = nowInZone(NY, 30 * MINUTE);
  const other = hhmm < "19:00" ? "After 9 PM" : "Before 7 PM";
  await page.getByRole("group", { name: "Time of day" }).getByRole("button", { name: other }).click();
  await expect(page.getByTestId("tonight-empty")).toBeVisible();
  await page.context().close();
});

test("Show more tonight loads the next page of nights, still in start order", async ({ browser, runFunction }) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  const titles: string[] = [];
  // Twelve nights, created out of order: the first page holds ten.
  for (const offset of [55, 5, 50, 10, 45, 15, 40, 20, 35, 25, 30, 60]) {
    await createNight(runFunction, `At ${String(offset).padStart(2, "0")} ${tok}`, offset);
  }
  for (let offset = 5; offset <= 60; offset += 5) titles.push(`At ${String(offset).padStart(2, "0")} ${tok}`);

  const page = await newYorkPage(browser);
  await openTonight(page, tok);
  await expect(nights(page).getByTestId("tonight-title")).toHaveText(titles.slice(0, 10));
  await page.getByRole("button", { name: "Show more tonight" }).click();
  await expect(nights(page).getByTestId("tonight-title")).toHaveText(titles);
  await expect(page.getByRole("button", { name: "Show more tonight" })).toHaveCount(0);
  await page.context().close();
});

test("a browser in Detroit, on New York's clock, sees New York's mics tonight", async ({ browser, runFunction }) => {
  skipNearMidnight();
  const tok = `zt${randomUUID().slice(0, 8)}`;
  await createNight(runFunction, `Eastern ${tok}`, 45);
  const context = await browser.newContext({ timezoneId: "America/Detroit" });
  const page = await context.newPage();
  await openTonight(page, tok);
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Eastern ${tok}`]);
  await context.close();
});

test("a comedian whose default city is Chicago, in a browser on UTC, sees Chicago's mics tonight", async ({
  browser,
  runFunction,
  signUp,
}) => {
  // Nights 45 minutes ahead, as the other Tonight tests make them (started ones sank below the
  // budget of a backend many tests share); near midnight in either city they would be tomorrow's.
  skipNearMidnight();
  test.skip(nowInZone("America/Chicago").hhmm >= "22:50", "too close to midnight in Chicago");
  const tok = `zt${randomUUID().slice(0, 8)}`;
  await createNight(runFunction, `Eastern ${tok}`, 45);
  const { dayOfWeek, hhmm } = nowInZone("America/Chicago", 45 * MINUTE);
  await createNight(runFunction, `Windy ${tok}`, 45, {
    city: "Chicago",
    timeZone: "America/Chicago",
    dayOfWeek,
    startTimeLocal: hhmm,
    latitude: 41.8781,
    longitude: -87.6298,
  });
  const context = await browser.newContext({ timezoneId: "UTC" });
  const page = await context.newPage();
  // Signed out, the browser's zone: UTC names no place, so New York's region (whatever mics keep UTC; other
  // tests add some).
  await openTonight(page, tok);
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Eastern ${tok}`]);

  await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Profile" });
  await form.getByLabel("Default city").fill("Chicago");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Profile updated")).toBeVisible();

  // Signed in with a default city and no location: the city's Tonight.
  await openTonight(page, tok);
  await expect(nights(page).getByTestId("tonight-title")).toHaveText([`Windy ${tok}`]);
  await context.close();
});
