import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { showSceneFilters } from "./sceneList";

/** The fixtures' `runFunction`: runs any backend function through the CLI. */
export type Run = <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;

/** Where the live-scene journeys' test mics stand (and where their browsers say they are). */
export const VENUE = { latitude: 40.7306, longitude: -73.9866 };

/** Day of week and "HH:MM" in `timeZone`, `offsetMs` from now. */
export function nowInZone(timeZone: string, offsetMs = 0): { dayOfWeek: number; hhmm: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(Date.now() + offsetMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const dayOfWeek = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"));
  return { dayOfWeek, hhmm: `${get("hour")}:${get("minute")}` };
}

/** Day of week and "HH:MM" in New York, so a mic starting now has its check-in window open. */
export function nowInNewYork(offsetMs = 0): { dayOfWeek: number; hhmm: string } {
  return nowInZone("America/New_York", offsetMs);
}

/** A weekly New York open mic at VENUE starting this minute (its check-in window is open). */
export async function createOpenMic(runFunction: Run, title: string, venuePrefix: string): Promise<string> {
  const { dayOfWeek, hhmm } = nowInNewYork();
  return await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName: `${venuePrefix} ${title.split(" ").pop()}`,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek,
    startTimeLocal: hhmm,
    timeZone: "America/New_York",
    latitude: VENUE.latitude,
    longitude: VENUE.longitude,
  });
}

/** A browser context standing at the venue, with location access granted. */
export async function pageAtVenue(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ geolocation: VENUE, permissions: ["geolocation"] });
  return await context.newPage();
}

/** Opens /scene searching for `search`. */
export async function openSceneAt(page: Page, search: string) {
  await page.goto("/scene");
  await showSceneFilters(page);
  await page.getByLabel("Search mics, venues or cities").fill(search);
}

/** Leaves a mark on the window that a reload would wipe: what follows must happen in place. */
export async function markNoReload(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
}

/** Fails if the page was reloaded since markNoReload. */
export async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

const NY = "America/New_York";

/** A weekly New York mic whose night starts `offsetMin` minutes from now (on tonight's date). */
export async function createNight(
  runFunction: Run,
  title: string,
  offsetMin: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { dayOfWeek, hhmm } = nowInZone(NY, offsetMin * 60_000);
  return await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName: `Tonight Room ${title.split(" ").pop()}`,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek,
    startTimeLocal: hhmm,
    timeZone: NY,
    latitude: VENUE.latitude,
    longitude: VENUE.longitude,
    signupMethod: "in_person",
    costInfo: { type: "free" },
    performanceMinutes: 5,
    ...extra,
  });
}

/** The tests need tonight's nights to stay on tonight's date: skip in the last hour before midnight in New York. */
export function skipNearMidnight() {
  const { hhmm } = nowInZone(NY);
  test.skip(hhmm >= "22:50", "too close to midnight in New York for tonight's nights to stay on today's date");
}
