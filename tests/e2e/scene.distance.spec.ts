import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { toast } from "./support/ui";
import { card, createMic, searchScene, token } from "./support/sceneList";

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

  test("nearby cards show their distance, nearest first, then by day and time", async ({ browser, runFunction }) => {
    const here = { latitude: 40.7306, longitude: -73.9866 };
    const context = await browser.newContext({ geolocation: here, permissions: ["geolocation"] });
    const page = await context.newPage();
    const tok = token();
    // The area is read cell by cell (geohash order): the mic 6.9 miles south comes before these.
    const southWed = `South Wednesday ${tok}`;
    const hereThu = `Here Thursday ${tok}`;
    const hereMon = `Here Monday ${tok}`;
    const north = `North Mic ${tok}`; // about 14 miles north
    const at = (dLat: number) => ({ latitude: here.latitude + dLat, longitude: here.longitude });
    await createMic(runFunction, { title: north, venueName: "N", city: "Yonkers", dayOfWeek: 1, ...at(0.2) });
    await createMic(runFunction, { title: southWed, venueName: "S", city: "Brooklyn", dayOfWeek: 3, ...at(-0.1) });
    await createMic(runFunction, { title: hereThu, venueName: "H", city: "New York", dayOfWeek: 4, ...at(0) });
    await createMic(runFunction, { title: hereMon, venueName: "H", city: "New York", dayOfWeek: 1, ...at(0) });

    await page.goto("/scene");
    await searchScene(page, tok);
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(4);
    await expect(cards.getByRole("heading")).toHaveText([hereMon, hereThu, southWed, north]);
    await expect(card(page, hereMon).getByTestId("distance")).toHaveText("0.0 mi away");
    await expect(card(page, southWed).getByTestId("distance")).toHaveText("6.9 mi away");
    await expect(card(page, north).getByTestId("distance")).toHaveText("14 mi away");

    // Without the distance filter the cards carry no distance.
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(cards).toHaveCount(4);
    await expect(page.getByTestId("distance")).toHaveCount(0);
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

  test("a filter left on opens on from the saved location, without asking the browser again", async ({
    browser,
    runFunction,
  }) => {
    const here = { latitude: 40.7306, longitude: -73.9866 };
    const tok = token();
    const near = `Near Mic ${tok}`;
    const far = `Far Mic ${tok}`; // Philadelphia, about 80 miles away
    await createMic(runFunction, { title: near, venueName: "A", city: "New York", ...here });
    await createMic(runFunction, {
      title: far,
      venueName: "C",
      city: "Philadelphia",
      latitude: 39.9526,
      longitude: -75.1652,
    });

    // First visit: the filter turned on (the browser gives the location) and set to 50 miles.
    const first = await browser.newContext({ geolocation: here, permissions: ["geolocation"] });
    const page = await first.newPage();
    await page.goto("/scene");
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    const slider = page.getByRole("slider", { name: "Distance in miles" });
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press("ArrowRight");
    await expect(page.getByText("Within 50 miles")).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("userLocation") ?? "null")))
      .toMatchObject({
        lat: here.latitude,
        lng: here.longitude,
        radiusMiles: 50,
      });
    const saved = await page.evaluate(() => localStorage.getItem("userLocation")!);
    await first.close();

    // Next visit, no location permission, the geolocation API watched: the filter is on at once.
    const next = await browser.newContext();
    await next.addInitScript((entry) => {
      if (!sessionStorage.getItem("seeded")) localStorage.setItem("userLocation", entry);
      sessionStorage.setItem("seeded", "1");
      (window as unknown as { geoCalls: number }).geoCalls = 0;
      navigator.geolocation.getCurrentPosition = () => void (window as unknown as { geoCalls: number }).geoCalls++;
    }, saved);
    const again = await next.newPage();
    await again.goto("/scene");
    await expect(again.getByRole("switch", { name: "Filter by distance" })).toBeChecked();
    await expect(again.getByText("Within 50 miles")).toBeVisible();
    await searchScene(again, tok);
    await expect(again.getByRole("article")).toHaveCount(1);
    await expect(card(again, near)).toBeVisible();
    expect(await again.evaluate(() => (window as unknown as { geoCalls: number }).geoCalls)).toBe(0);

    // Turned off, it stays off on the next load.
    await again.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(again.getByRole("article")).toHaveCount(2);
    await expect
      .poll(() => again.evaluate(() => JSON.parse(localStorage.getItem("userLocation") ?? "null")))
      .not.toHaveProperty("radiusMiles");
    await again.reload();
    await expect(again.getByRole("switch", { name: "Filter by distance" })).not.toBeChecked();
    await next.close();
  });

  test("a saved location over an hour old does not turn the filter on", async ({ browser }) => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const old = Date.now() - 61 * 60_000;
      localStorage.setItem("userLocation", JSON.stringify({ lat: 40.73, lng: -73.98, ts: old, radiusMiles: 25 }));
    });
    const page = await context.newPage();
    await page.goto("/scene");
    await expect(page.getByRole("switch", { name: "Filter by distance" })).not.toBeChecked();
    await expect(page.getByText("Within 25 miles")).toHaveCount(0);
    await context.close();
  });
});

test.describe("distance filter before its list's code is in", () => {
  // A spot in South Dakota with no other test's mics within 25 miles.
  const here = { latitude: 44.3683, longitude: -100.351 };

  /** Holds back the distance filter's list chunk (and its preload) until `release()`. */
  async function holdAreaChunk(page: Page) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route(/\/assets\/AreaSceneResults-[^/]*\.js$/, async (route) => {
      asked++;
      await released;
      await route.continue();
    });
    return { release, asked: () => asked };
  }

  test("left on, the scene opens on nearby cards from the page fetched with the HTML, before the list's code or the socket", async ({
    browser,
    runFunction,
  }) => {
    const tok = token();
    const near = `Prairie Mic ${tok}`;
    await createMic(runFunction, { title: near, venueName: "Pierre Room", city: "Pierre", ...here });
    const context = await browser.newContext();
    await context.addInitScript((at) => {
      const entry = { lat: at.latitude, lng: at.longitude, ts: Date.now() - 10 * 60_000, radiusMiles: 25 };
      localStorage.setItem("userLocation", JSON.stringify(entry));
    }, here);
    const page = await context.newPage();
    const chunk = await holdAreaChunk(page);
    // Nothing the backend sends over the WebSocket reaches the page until the end.
    const held: string[] = [];
    let holding = true;
    let send: ((message: string) => void) | null = null;
    await page.routeWebSocket(/\/api\/.*sync/, (ws) => {
      const server = ws.connectToServer();
      send = (text) => ws.send(text);
      server.onMessage((message) => {
        const text = typeof message === "string" ? message : message.toString("utf8");
        if (holding) held.push(text);
        else ws.send(text);
      });
    });
    await page.goto("/scene");
    await expect(card(page, near)).toBeVisible();
    await expect(card(page, near).getByTestId("distance")).toBeVisible();
    expect(chunk.asked()).toBeGreaterThan(0);
    expect(send).not.toBeNull();

    // Then the list's own code and live pages take over.
    chunk.release();
    holding = false;
    for (const text of held.splice(0)) send!(text);
    await expect(page.getByRole("switch", { name: "Filter by distance" })).toBeChecked();
    await searchScene(page, tok);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(card(page, near).getByTestId("distance")).toBeVisible();
    await context.close();
  });

  test("turned on by hand, its first nearby cards come before the list's code", async ({ browser, runFunction }) => {
    const tok = token();
    const near = `Prairie Hand Mic ${tok}`;
    await createMic(runFunction, { title: near, venueName: "Pierre Hall", city: "Pierre", ...here });
    const context = await browser.newContext({ geolocation: here, permissions: ["geolocation"] });
    const page = await context.newPage();
    const chunk = await holdAreaChunk(page);
    await page.goto("/scene");
    await expect(page.getByTestId("scene-card").first()).toBeVisible();
    await page.getByRole("switch", { name: "Filter by distance" }).click();
    await expect(card(page, near)).toBeVisible();
    await expect(card(page, near).getByTestId("distance")).toBeVisible();
    expect(chunk.asked()).toBeGreaterThan(0);

    chunk.release();
    await searchScene(page, tok);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(card(page, near)).toBeVisible();
    await context.close();
  });
});
