import type { Browser, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";
import { encodeGeohash } from "../../convex/lib/geo";

type MicFields = {
  title: string;
  venueName: string;
  city: string;
  type?: "open_mic" | "show" | "booked_show" | "bringer_show";
  dayOfWeek?: number | null;
  startTimeLocal?: string;
  listTimeLocal?: string;
  latitude?: number;
  longitude?: number;
  signupMethod?: "in_person" | "online";
  signupLink?: string;
  notes?: string;
};

type Run = <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;

/** Inserts an active weekly item through the backend and returns its id. */
async function createMic(runFunction: Run, fields: MicFields): Promise<string> {
  return await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
    ...fields,
  });
}

/** A token that only this test's items carry, so searches ignore everything else. */
const token = () => `zq${randomUUID().slice(0, 8)}`;

function card(page: Page, title: string) {
  return page.getByRole("article", { name: title });
}

async function searchScene(page: Page, text: string) {
  await page.getByLabel("Search mics, venues or cities").fill(text);
}

test.describe("the scene, anonymously", () => {
  test("browse, search and each filter", async ({ page, runFunction }) => {
    const tok = token();
    const alpha = `Alpha Mic ${tok}`;
    const beta = `Beta Showcase ${tok}`;
    const gamma = `Gamma Bringer ${tok}`;
    await createMic(runFunction, {
      title: alpha,
      venueName: `Cellar ${tok}`,
      city: `Springfield ${tok}`,
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
      signupMethod: "in_person",
      notes: "Five minutes each. Bring a friend.",
    });
    await createMic(runFunction, {
      title: beta,
      venueName: `Loft ${tok}`,
      city: `Shelbyville ${tok}`,
      type: "show",
      dayOfWeek: 5,
      startTimeLocal: "21:30",
      signupMethod: "online",
      signupLink: "https://example.com/signup",
    });
    await createMic(runFunction, {
      title: gamma,
      venueName: `Basement ${tok}`,
      city: `Springfield ${tok}`,
      type: "bringer_show",
      dayOfWeek: 0,
      startTimeLocal: "19:00",
    });

    await page.goto("/scene");
    await expect(page.getByRole("heading", { level: 1, name: "Comedy Scene" })).toBeVisible();
    await expect(page.getByText("Discover mics and shows in your area")).toBeVisible();
    // Only signed-in comedians can add events.
    await expect(page.getByRole("link", { name: "Add Event" })).toHaveCount(0);

    const cards = page.getByRole("article");
    await searchScene(page, tok);
    await expect(cards).toHaveCount(3);
    await expect(page.getByTestId("result-count")).toContainText("3 events");

    // Everything a card shows.
    const a = card(page, alpha);
    await expect(a.getByRole("heading", { level: 3, name: alpha })).toBeVisible();
    const maps = a.getByRole("link", { name: new RegExp(`Cellar ${tok}, Springfield ${tok}`) });
    await expect(maps).toHaveAttribute(
      "href",
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`Cellar ${tok}, Springfield ${tok}`)}`,
    );
    await expect(maps).toHaveAttribute("target", "_blank");
    await expect(maps).toHaveAttribute("rel", /noopener/);
    await expect(a.getByText("Open Mic", { exact: true })).toBeVisible();
    await expect(a.getByText("Every Wednesday at 8:00 PM · List at 7:30 PM")).toBeVisible();
    await expect(a.getByText("Sign up in person")).toBeVisible();
    await expect(a.getByText("Five minutes each. Bring a friend.")).toBeVisible();
    await expect(a.getByText("0 check-ins")).toBeVisible();
    await expect(a.getByText("Not confirmed yet")).toBeVisible();
    await expect(a.getByRole("button", { name: "Check In" })).toBeVisible();
    await expect(a.getByRole("button", { name: "Add to Schedule" })).toBeVisible();
    await expect(card(page, beta).getByRole("link", { name: "Sign up online" })).toHaveAttribute(
      "href",
      "https://example.com/signup",
    );
    await expect(card(page, beta).getByText("Every Friday at 9:30 PM")).toBeVisible();
    await expect(card(page, gamma).getByText("Bringer Show", { exact: true })).toBeVisible();

    // Search matches the venue and the city, in any case.
    await searchScene(page, `CELLAR ${tok.toUpperCase()}`);
    await expect(cards).toHaveCount(1);
    await expect(card(page, alpha)).toBeVisible();
    await searchScene(page, `shelbyville ${tok}`);
    await expect(cards).toHaveCount(1);
    await expect(card(page, beta)).toBeVisible();
    await searchScene(page, `springfield ${tok}`);
    await expect(cards).toHaveCount(2);

    // Type chips: Show covers shows of every kind.
    await searchScene(page, tok);
    const types = page.getByRole("group", { name: "Event type" });
    await types.getByRole("button", { name: "Open Mic" }).click();
    await expect(types.getByRole("button", { name: "Open Mic" })).toHaveAttribute("aria-pressed", "true");
    await expect(types.getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "false");
    await expect(cards).toHaveCount(1);
    await expect(card(page, alpha)).toBeVisible();
    await types.getByRole("button", { name: "Show" }).click();
    await expect(cards).toHaveCount(2);
    await expect(card(page, beta)).toBeVisible();
    await expect(card(page, gamma)).toBeVisible();
    await types.getByRole("button", { name: "All" }).click();
    await expect(cards).toHaveCount(3);

    // Day chips.
    const days = page.getByRole("group", { name: "Day" });
    await days.getByRole("button", { name: "Fri" }).click();
    await expect(days.getByRole("button", { name: "Fri" })).toHaveAttribute("aria-pressed", "true");
    await expect(cards).toHaveCount(1);
    await expect(card(page, beta)).toBeVisible();
    await days.getByRole("button", { name: "Sun" }).click();
    await expect(cards).toHaveCount(1);
    await expect(card(page, gamma)).toBeVisible();
    await days.getByRole("button", { name: "Mon" }).click();
    await expect(cards).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "No events match your filters" })).toBeVisible();

    // Clear filters resets the search and the chips.
    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await expect(page.getByLabel("Search mics, venues or cities")).toHaveValue("");
    await expect(days.getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "true");
    // The whole scene again, from its first page (these Wednesday, Friday and
    // Sunday items need not be on it).
    await expect.poll(() => cards.count()).toBeGreaterThan(3);
    await expect(page.getByRole("heading", { name: "No events match your filters" })).toHaveCount(0);
  });

  test("signed-in-only actions ask to sign in; details and share work", async ({ page, context, runFunction }) => {
    const tok = token();
    const title = `Prompt Mic ${tok}`;
    const id = await createMic(runFunction, { title, venueName: `Venue ${tok}`, city: "Queens" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/scene");
    await searchScene(page, tok);
    const c = card(page, title);

    await c.getByRole("button", { name: `Favorite ${title}` }).click();
    await expect(toast(page, "Please sign in to add favorites")).toBeVisible();
    await expect(c.getByRole("button", { name: `Favorite ${title}` })).toHaveAttribute("aria-pressed", "false");

    await c.getByRole("button", { name: "Check In" }).click();
    await expect(toast(page, "Please sign in to check in")).toBeVisible();

    await c.getByRole("button", { name: "Add to Schedule" }).click();
    await expect(toast(page, "Please sign in to add events to your schedule")).toBeVisible();

    // Without the Web Share API the link is copied.
    await c.getByRole("button", { name: `Share ${title}` }).click();
    await expect(toast(page, "Link copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/event/${id}$`));

    await c.getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Show Time")).toBeVisible();
    await expect(dialog.getByText("8:00 PM", { exact: true })).toBeVisible();
    // Anonymous visitors get neither of the dialog's actions.
    await expect(dialog.getByRole("button", { name: "Delete Event" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Remove from Schedule" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  test("the event page and its error states", async ({ page, runFunction }) => {
    const tok = token();
    const title = `Event Page Mic ${tok}`;
    const id = await createMic(runFunction, {
      title,
      venueName: `Club ${tok}`,
      city: "Brooklyn",
      listTimeLocal: "19:45",
      signupMethod: "online",
      signupLink: "https://example.com/list",
      notes: "Seven minute sets.",
    });
    await page.goto(`/event/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: /Back to Scene/ })).toBeVisible();
    await expect(page.getByRole("button", { name: `Share ${title}` })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`Club ${tok}, Brooklyn`) })).toBeVisible();
    await expect(page.getByText("Every Wednesday at 8:00 PM")).toBeVisible();
    await expect(page.getByText("Show Time")).toBeVisible();
    await expect(page.getByText("List Time")).toBeVisible();
    await expect(page.getByText("7:45 PM")).toBeVisible();
    await expect(page.getByText("0 check-ins")).toBeVisible();
    await expect(page.getByText("Not confirmed yet")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign up online" })).toHaveAttribute(
      "href",
      "https://example.com/list",
    );
    await expect(page.getByText("Seven minute sets.")).toBeVisible();
    // Anonymous visitors are invited to sign up instead of the actions.
    await expect(page.getByRole("link", { name: "Sign up for free" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to My Schedule" })).toHaveCount(0);

    await page.goto("/event/not-a-real-id");
    await expect(page.getByText("Event not found")).toBeVisible();
    await page.getByRole("link", { name: /Back to Scene/ }).click();
    await expect(page).toHaveURL(/\/scene$/);
    await expect(page.getByRole("heading", { level: 1, name: "Comedy Scene" })).toBeVisible();
  });
});

test.describe("distance filter", () => {
  test("with a granted location, only nearby items with coordinates stay", async ({ browser, runFunction }) => {
    const here = { latitude: 40.7306, longitude: -73.9866 };
    const context = await browser.newContext({ geolocation: here, permissions: ["geolocation"] });
    const page = await context.newPage();
    const tok = token();
    const near = `Near Mic ${tok}`;
    const mid = `Mid Mic ${tok}`; // about 14 miles north
    const far = `Far Mic ${tok}`; // Philadelphia, about 80 miles away
    const nowhere = `Nowhere Mic ${tok}`; // no coordinates
    await createMic(runFunction, {
      title: near,
      venueName: "A",
      city: "New York",
      latitude: here.latitude,
      longitude: here.longitude,
    });
    await createMic(runFunction, {
      title: mid,
      venueName: "B",
      city: "Yonkers",
      latitude: here.latitude + 0.2,
      longitude: here.longitude,
    });
    await createMic(runFunction, {
      title: far,
      venueName: "C",
      city: "Philadelphia",
      latitude: 39.9526,
      longitude: -75.1652,
    });
    await createMic(runFunction, { title: nowhere, venueName: "D", city: "Nowhere" });

    await page.goto("/scene");
    await searchScene(page, tok);
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(4);

    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(page.getByRole("switch", { name: "Filter by distance" })).toBeChecked();
    await expect(page.getByText("Within 25 miles")).toBeVisible();
    await expect(cards).toHaveCount(2);
    await expect(card(page, near)).toBeVisible();
    await expect(card(page, mid)).toBeVisible();

    // The location is cached for the next visit.
    const cached = await page.evaluate(() => JSON.parse(localStorage.getItem("userLocation") ?? "null"));
    expect(cached).toMatchObject({ lat: here.latitude, lng: here.longitude });
    expect(typeof cached.ts).toBe("number");

    // 25 -> 5 miles with the keyboard (step 5).
    const slider = page.getByRole("slider", { name: "Distance in miles" });
    await slider.focus();
    for (let i = 0; i < 4; i++) await slider.press("ArrowLeft");
    await expect(page.getByText("Within 5 miles")).toBeVisible();
    await expect(slider).toHaveAttribute("aria-valuenow", "5");
    await expect(cards).toHaveCount(1);
    await expect(card(page, near)).toBeVisible();

    for (let i = 0; i < 9; i++) await slider.press("ArrowRight");
    await expect(page.getByText("Within 50 miles")).toBeVisible();
    await expect(slider).toHaveAttribute("aria-valuenow", "50");
    await expect(cards).toHaveCount(2);

    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(cards).toHaveCount(4);
    await context.close();
  });

  test("a denied location says why and keeps showing everything", async ({ browser, runFunction }) => {
    const context = await browser.newContext();
    await context.clearPermissions();
    const page = await context.newPage();
    const tok = token();
    await createMic(runFunction, { title: `Any Mic ${tok}`, venueName: "A", city: "Anywhere" });
    await page.goto("/scene");
    await searchScene(page, tok);
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(toast(page, "Location access required")).toBeVisible();
    await expect(toast(page, "Location access denied.")).toContainText("Search will show all venues globally.");
    await expect(page.getByRole("switch", { name: "Filter by distance" })).not.toBeChecked();
    await expect(page.getByRole("article")).toHaveCount(1);
    await context.close();
  });
});

test.describe("signed in", () => {
  test("favourite, add to schedule and remove from schedule", async ({ page, signIn, runFunction }) => {
    const tok = token();
    const title = `Sched Mic ${tok}`;
    await createMic(runFunction, {
      title,
      venueName: `Room ${tok}`,
      city: "Harlem",
      dayOfWeek: 4,
      startTimeLocal: "20:30",
    });
    const noDay = `No Day Mic ${tok}`;
    await createMic(runFunction, { title: noDay, venueName: `Room ${tok}`, city: "Harlem", dayOfWeek: null });
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/scene");
    await expect(page.getByRole("link", { name: "Add Event" })).toBeVisible();
    await searchScene(page, tok);
    const c = card(page, title);

    const heart = c.getByRole("button", { name: `Favorite ${title}` });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    await expect(toast(page, "Added to favorites")).toBeVisible();
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await expect(toast(page, "Removed from favorites")).toBeVisible();

    await c.getByRole("button", { name: "Add to Schedule" }).click();
    await expect(toast(page, `Added ${title} to your schedule`)).toBeVisible();
    await expect(toast(page, `Added ${title} to your schedule`)).toContainText(/Next: Thu, \w{3} \d{1,2} at 8:30 PM/);
    await c.getByRole("button", { name: "Add to Schedule" }).click();
    await expect(toast(page, "Already in your schedule")).toBeVisible();

    await card(page, noDay).getByRole("button", { name: "Add to Schedule" }).click();
    await expect(toast(page, "This event doesn't have a complete schedule")).toBeVisible();

    await c.getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.getByRole("button", { name: "Delete Event" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Remove from Schedule" }).click();
    await expect(toast(page, "Removed from schedule")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Remove from Schedule" })).toHaveCount(0);
  });

  test("an admin deletes an event from its dialog", async ({ page, signIn, runFunction }) => {
    const tok = token();
    const title = `Doomed Mic ${tok}`;
    await createMic(runFunction, { title, venueName: `Room ${tok}`, city: "Bronx" });
    await signIn(page, DEMO_ADMIN);
    await page.goto("/scene");
    await searchScene(page, tok);
    await card(page, title).getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await dialog.getByRole("button", { name: "Delete Event" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(title);
    await confirm.getByRole("button", { name: "Delete Event" }).click();
    await expect(toast(page, "Event deleted")).toBeVisible();
    await expect(toast(page, "Event deleted")).toContainText("0 logged sets updated");
    await expect(page.getByRole("article")).toHaveCount(0);
  });
});

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
    const showMore = noScroll.getByRole("button", { name: "Show more" });
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
    await expect(page.getByRole("button", { name: "Show more" })).toHaveCount(0);
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
    await expect(cards.first()).toHaveAccessibleName(titles[0]);
    await expect(cards.nth(23)).toHaveAccessibleName(titles[23]);
    await expect(card(page, titles[24])).toHaveCount(0);
    // 'Show more' asks the server for the next page.
    await page.getByRole("button", { name: "Show more" }).click();
    await expect(cards.nth(24)).toHaveAccessibleName(titles[24]);
    await expect(cards.nth(29)).toHaveAccessibleName(titles[29]);

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
    await page.getByRole("button", { name: "Show more" }).click();
    await expect(cards).toHaveCount(30);
    await expect(count).toHaveText("30 events");
    await expect(page.getByRole("button", { name: "Show more" })).toHaveCount(0);

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
    await page.getByRole("button", { name: "Show more" }).click();
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

test("the scene and an event page fit a 375 px phone", async ({ browser, runFunction }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  const tok = token();
  const title = `Phone Mic With A Rather Long Name ${tok}`;
  const id = await createMic(runFunction, {
    title,
    venueName: `The Very Long Venue Name Comedy Basement ${tok}`,
    city: "Jersey City",
    listTimeLocal: "19:30",
    signupMethod: "in_person",
    notes: "A long note that goes on and on about the list, the host, the drink minimum and the light. ".repeat(3),
  });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  await page.goto("/scene");
  await searchScene(page, tok);
  await expect(card(page, title)).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await card(page, title).getByRole("button", { name: "View Details" }).click();
  await expect(page.getByRole("dialog", { name: title })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.keyboard.press("Escape");

  await page.goto(`/event/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await context.close();
});
