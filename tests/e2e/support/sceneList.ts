/** Shared set-up of the scene list journeys (scene.browse, scene.distance, scene.paging): test mics and the list's cards. */
import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import type { Run } from "./scene";

export type MicFields = {
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

/** Inserts an active weekly item through the backend and returns its id. */
export async function createMic(runFunction: Run, fields: MicFields): Promise<string> {
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
export const token = () => `zq${randomUUID().slice(0, 8)}`;

export function card(page: Page, title: string) {
  return page.getByRole("article", { name: title });
}

export async function searchScene(page: Page, text: string) {
  await showSceneFilters(page);
  await page.getByLabel("Search mics, venues or cities").fill(text);
}

/** On a phone the scene's filters fold behind a "Filters" button: opens them (a no-op on a desktop). */
export async function showSceneFilters(page: Page) {
  const search = page.getByLabel("Search mics, venues or cities");
  const fold = page.getByRole("button", { name: /^Filters/ });
  await search.or(fold).first().waitFor();
  if (await fold.isVisible()) {
    if ((await fold.getAttribute("aria-expanded")) !== "true") await fold.click();
    await search.waitFor();
  }
}
