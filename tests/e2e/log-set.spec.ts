import { TZDate } from "@date-fns/tz";
import type { Page } from "@playwright/test";
import { addDays, format } from "date-fns";
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { toast } from "./support/ui";

type VenueResult = {
  venueName: string;
  address: string | null;
  city: string;
  googlePlaceId: string | null;
  latitude: number | null;
  longitude: number | null;
  itemCount: number;
};

/** A one-word name no other test uses (similar-name matching works on whole words). */
const uniqueWord = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, "").slice(0, 8)}`;

/** A fresh comedian past onboarding, on the dashboard. */
async function newComedian(page: Page, signUp: (page: Page) => Promise<unknown>) {
  await signUp(page);
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function pickVenue(page: Page, text: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: "Venue" }).fill(text);
  await page.getByRole("option", { name: option }).click();
}

test.describe("log a set", () => {
  test.describe.configure({ timeout: 90_000 });

  test("at a mic already in the scene: the only match is preselected and the total shows", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const venueName = uniqueWord("Cellar");
    await runFunction("fixtures:insertSceneItem", {
      title: `Tuesday Tryouts ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 2,
      startTimeLocal: "20:00",
      timeZone: "America/New_York",
    });
    await newComedian(page, signUp);

    await page.goto("/log-set");
    await expect(page.getByRole("heading", { level: 1, name: "Where did you perform?" })).toBeVisible();
    await expect(page.getByText("Step 1 of 4")).toBeVisible();
    // Continue appears only once a venue is chosen.
    await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
    await pickVenue(page, venueName, new RegExp(venueName));
    await expect(page.getByLabel("Selected venue")).toContainText(venueName);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/log-set\/event$/);
    await expect(page.getByRole("heading", { name: "What event did you perform at?" })).toBeVisible();
    await expect(page.getByText("Step 2 of 4")).toBeVisible();
    await expect(page.getByRole("radio", { name: new RegExp(`Tuesday Tryouts ${venueName}`) })).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/log-set\/details$/);
    await expect(page.getByText("Step 3 of 4")).toBeVisible();
    await expect(page.getByLabel("Minutes on stage")).toHaveValue("5");
    await page.getByLabel("Minutes on stage").fill("7");
    await page.getByLabel("Tags", { exact: true }).fill("new closer");
    await page.getByLabel("Tags", { exact: true }).press("Enter");
    await page.getByLabel("Tags", { exact: true }).fill("tight five, new closer,");
    await page.getByRole("button", { name: "riff" }).click();
    const tags = page.getByRole("list", { name: "Tags on this set" });
    await expect(tags.getByRole("listitem")).toHaveText(["new closer", "tight five", "riff"]);
    // Empty, 0 or negative minutes are refused before anything is saved, and so are notes past their cap.
    const minutesError = page.getByRole("alert").filter({ hasText: "Minutes must be a whole number from 1 to 600" });
    for (const minutes of ["", "0", "-2"]) {
      await page.getByLabel("Minutes on stage").fill(minutes);
      await page.getByRole("button", { name: "Save Set" }).click();
      await expect(minutesError).toBeVisible();
      await expect(page).toHaveURL(/\/log-set\/details$/);
    }
    await page.getByLabel("Minutes on stage").fill("7");
    await expect(minutesError).toHaveCount(0);
    await page.getByLabel("Notes").fill("x".repeat(2001));
    await expect(page.getByText("2,001 / 2,000 characters")).toBeVisible();
    await page.getByRole("button", { name: "Save Set" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Notes must be 2000 characters or fewer" })).toBeVisible();
    await expect(page).toHaveURL(/\/log-set\/details$/);
    await page.getByLabel("Notes").fill("Closer landed");
    await expect(page.getByText(/ \/ 2,000 characters$/)).toHaveCount(0);
    // A reload keeps the wizard's venue and event.
    await page.reload();
    await expect(page.getByText(`Tuesday Tryouts ${venueName}`)).toBeVisible();
    await page.getByLabel("Minutes on stage").fill("7");
    await page.getByRole("button", { name: "Save Set" }).click();

    await expect(page).toHaveURL(/\/log-set\/success$/);
    await expect(page.getByRole("heading", { name: "Set logged!" })).toBeVisible();
    await expect(page.getByText("Total Minutes")).toBeVisible();
    await expect(page.getByTestId("total-minutes")).toHaveText("7");

    await page.getByRole("button", { name: "Log Another Set" }).click();
    await expect(page).toHaveURL(/\/log-set$/);
    await expect(page.getByRole("combobox", { name: "Venue" })).toHaveValue("");
  });

  test("the event step lists the venue's own events, then similar names nearby only, none chosen for you", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const word = uniqueWord("Lantern");
    const mic = (title: string, venueName: string, city: string, latitude: number, longitude: number) =>
      runFunction("fixtures:insertSceneItem", {
        title,
        venueName,
        city,
        address: `1 Main St, ${city}`,
        latitude,
        longitude,
        type: "open_mic",
        recurrence: "weekly",
        dayOfWeek: 3,
        startTimeLocal: "20:00",
        timeZone: "America/New_York",
      });
    // Names share only the test's own word, so no seeded venue is similar to them.
    await mic(`Paper Night ${word}`, `${word} Quokka`, "New York", 40.7265, -73.9815);
    await mic(`Lounge Mic ${word}`, `${word} Wombat`, "New York", 40.7306, -73.9866);
    await mic(`Fishtown Funny Mic ${word}`, `${word} Numbat`, "Philadelphia", 39.9713, -75.1345);
    await newComedian(page, signUp);

    await page.goto("/log-set");
    await pickVenue(page, `${word} Quokka`, new RegExp(`${word} Quokka`));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/log-set\/event$/);

    const own = page.getByRole("radiogroup", { name: "What event did you perform at?" });
    await expect(own.getByRole("radio", { name: new RegExp(`Paper Night ${word}`) })).toBeChecked();
    const similar = page.getByRole("radiogroup", { name: "Similar venue names" });
    await expect(page.getByRole("heading", { name: "Similar venue names" })).toBeVisible();
    await expect(similar.getByRole("radio")).toHaveCount(1);
    await expect(similar.getByRole("radio", { name: new RegExp(`Lounge Mic ${word}`) })).not.toBeChecked();
    // A similar name in another city is not offered at all.
    await expect(page.getByText(`Fishtown Funny Mic ${word}`)).toHaveCount(0);
    // The comedian can still choose the nearby one.
    await similar.getByRole("radio", { name: new RegExp(`Lounge Mic ${word}`) }).click();
    await expect(own.getByRole("radio", { name: new RegExp(`Paper Night ${word}`) })).not.toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/log-set\/details$/);
    await expect(page.getByText(`Lounge Mic ${word}`)).toBeVisible();
  });

  test("at a new mic entered by hand: venue/mic details add it to the scene", async ({ page, signUp, runFunction }) => {
    const venueName = uniqueWord("Basement");
    await newComedian(page, signUp);

    // Without a venue, later steps send the comedian back.
    await page.goto("/log-set/event");
    await expect(toast(page, "Missing info")).toBeVisible();
    await expect(page).toHaveURL(/\/log-set$/);

    await page.getByRole("button", { name: "Enter the venue yourself" }).click();
    await page.getByLabel("Venue name").fill(venueName);
    await page.getByLabel("Address").fill("12 Congress Ave");
    await page.getByLabel("City").fill("Austin");
    await page.getByRole("button", { name: "Use this venue" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByRole("radio", { name: /New event \/ not listed/ })).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/log-set\/details$/);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/log-set\/venue-details$/);
    await expect(page.getByRole("heading", { name: "Venue / Mic Details" })).toBeVisible();
    await expect(page.getByText("Step 4 of 4")).toBeVisible();
    await expect(page.getByLabel("Event name")).toHaveValue(`Open Mic at ${venueName}`);
    await expect(page.getByLabel("Time", { exact: true })).toHaveValue("20:00");
    await expect(page.getByLabel("List time")).toHaveValue("19:30");
    await page.getByLabel("Time", { exact: true }).fill("21:00");
    await expect(page.getByLabel("List time")).toHaveValue("20:30");
    await expect(page.getByRole("checkbox", { name: /Also add this mic to the scene/ })).toBeChecked();
    await page.getByRole("button", { name: "Save Set" }).click();

    await expect(page.getByRole("heading", { name: "Set logged!" })).toBeVisible();
    await expect(page.getByTestId("total-minutes")).toHaveText("5");

    const venues = await runFunction<VenueResult[]>("venues:search", { query: venueName });
    expect(venues).toHaveLength(1);
    expect(venues[0]).toMatchObject({
      venueName,
      address: "12 Congress Ave",
      city: "Austin",
      itemCount: 1,
      latitude: null,
    });
  });

  test("with Google Places: a suggestion's place details give the venue its address and coordinates", async ({
    page,
    signUp,
    runFunction,
  }) => {
    const venueName = uniqueWord("StubClub");
    // No Maps script may load: the fake library below is the whole of Google.
    await page.route(/maps\.googleapis\.com/, (route) => route.abort());
    await page.addInitScript((name: string) => {
      const requests: unknown[] = [];
      (window as unknown as { __placesRequests: unknown[] }).__placesRequests = requests;
      class AutocompleteService {
        getPlacePredictions(request: { input: string }, callback: (data: unknown[], status: string) => void) {
          requests.push(request);
          setTimeout(
            () =>
              callback(
                [
                  {
                    place_id: "stub-place-1",
                    description: `${name}, 1 Main St, Springfield, IL, USA`,
                    structured_formatting: { main_text: name, secondary_text: "1 Main St, Springfield, IL, USA" },
                  },
                ],
                "OK",
              ),
            10,
          );
        }
      }
      class PlacesService {
        getDetails(_request: unknown, callback: (result: unknown, status: string) => void) {
          setTimeout(
            () =>
              callback(
                {
                  name,
                  formatted_address: "1 Main St, Springfield, IL 62701, USA",
                  geometry: { location: { lat: () => 39.7817, lng: () => -89.6501 } },
                  address_components: [{ long_name: "Springfield", types: ["locality", "political"] }],
                },
                "OK",
              ),
            10,
          );
        }
      }
      (window as unknown as { google: unknown }).google = { maps: { places: { AutocompleteService, PlacesService } } };
    }, venueName);

    await newComedian(page, signUp);
    await page.context().grantPermissions(["geolocation"]);
    await page.context().setGeolocation({ latitude: 39.8, longitude: -89.6 });
    await page.goto("/log-set");
    // Nearby: suggestions are biased to a 50 km circle around the comedian.
    await page.getByRole("button", { name: "Enable Location" }).click();
    await expect(page.getByRole("radio", { name: "Nearby", exact: true })).toBeChecked();
    await page.getByRole("combobox", { name: "Venue" }).fill("Stu");
    await expect(page.getByRole("option", { name: new RegExp(venueName) })).toBeVisible();
    const nearbyRequest = await page.evaluate(() =>
      (window as unknown as { __placesRequests: Array<Record<string, unknown>> }).__placesRequests.at(-1),
    );
    expect(nearbyRequest).toMatchObject({
      input: "Stu",
      locationBias: { center: { lat: 39.8, lng: -89.6 }, radius: 50000 },
    });

    await page.getByRole("radio", { name: "Global", exact: true }).click();
    await page.getByRole("combobox", { name: "Venue" }).fill("Stub");
    // The debounced search for the new text has gone out (switching to Global re-sent "Stu").
    await expect
      .poll(() =>
        page.evaluate(
          () => (window as unknown as { __placesRequests: Array<{ input?: string }> }).__placesRequests.at(-1)?.input,
        ),
      )
      .toBe("Stub");
    const option = page.getByRole("option", { name: new RegExp(venueName) });
    await expect(option).toContainText("1 Main St, Springfield, IL, USA");
    // Keyboard: arrow down to the suggestion, Enter picks it.
    await page.getByRole("combobox", { name: "Venue" }).press("ArrowDown");
    await expect(option).toHaveAttribute("aria-selected", "true");
    await page.getByRole("combobox", { name: "Venue" }).press("Enter");
    await expect(page.getByLabel("Selected venue")).toContainText("1 Main St, Springfield, IL 62701, USA");

    const requests = await page.evaluate(
      () => (window as unknown as { __placesRequests: Array<Record<string, unknown>> }).__placesRequests,
    );
    expect(requests.at(-1)).toMatchObject({
      input: "Stub",
      types: ["establishment"],
      componentRestrictions: { country: ["us", "ca", "gb", "au"] },
    });
    expect(requests.at(-1)).not.toHaveProperty("locationBias");

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("radio", { name: /New event \/ not listed/ })).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Minutes on stage").fill("12");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: "Show", exact: true }).click();
    await expect(page.getByLabel("Event name")).toHaveValue(`Show at ${venueName}`);
    await expect(page.getByRole("radio", { name: /Monthly/ })).toBeChecked();
    await page.getByRole("button", { name: "Save Set" }).click();
    await expect(page.getByTestId("total-minutes")).toHaveText("12");

    const venues = await runFunction<VenueResult[]>("venues:search", { query: venueName });
    expect(venues[0]).toMatchObject({
      venueName,
      googlePlaceId: "stub-place-1",
      city: "Springfield",
      latitude: 39.7817,
      longitude: -89.6501,
    });
  });

  test("the first set logged brings the 'First Timer' badge toast", async ({ page, signUp, runFunction }) => {
    const venueName = uniqueWord("Toastery");
    await runFunction("fixtures:insertSceneItem", {
      title: `Badge Night ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 4,
      startTimeLocal: "19:00",
      timeZone: "America/New_York",
    });
    await newComedian(page, signUp);
    await page.goto("/log-set");
    await pickVenue(page, venueName, new RegExp(venueName));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("radio", { name: new RegExp(`Badge Night ${venueName}`) })).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Save Set" }).click();
    await expect(toast(page, "Badge earned: First Timer")).toBeVisible();
    await expect(toast(page, "Log your first set")).toBeVisible();
  });

  test("a badge earned on another device is announced here too", async ({
    page,
    browser,
    signUp,
    signIn,
    runFunction,
  }) => {
    const venueName = uniqueWord("Elsewhere");
    await runFunction("fixtures:insertSceneItem", {
      title: `Other Device Mic ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 1,
      startTimeLocal: "19:30",
      timeZone: "America/New_York",
    });
    const creds = await signUp(page);
    await expect(page).toHaveURL(/\/onboarding\/welcome$/);
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The toaster's code loads after the layout's first paint.
    await page
      .locator("[data-badge-toaster]")
      .waitFor({ state: "attached", timeout: 10_000 })
      .catch(() => undefined);
    test.skip((await page.locator("[data-badge-toaster]").count()) === 0, "BadgeToaster is not mounted in the layout");

    // The same comedian logs their first set on their phone.
    const phoneContext = await browser.newContext();
    const phone = await phoneContext.newPage();
    await signIn(phone, creds);
    await phone.goto("/log-set");
    await pickVenue(phone, venueName, new RegExp(venueName));
    await phone.getByRole("button", { name: "Continue" }).click();
    await expect(phone.getByRole("radio", { name: new RegExp(venueName) })).toBeChecked();
    await phone.getByRole("button", { name: "Continue" }).click();
    await phone.getByRole("button", { name: "Save Set" }).click();
    await expect(phone.getByRole("heading", { name: "Set logged!" })).toBeVisible();
    await phoneContext.close();

    await expect(toast(page, "Badge earned: First Timer")).toBeVisible({ timeout: 15_000 });
  });
});

test.describe("log a set, in New York", () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({ timezoneId: "America/New_York" });

  test("the set starts at the mic's last show, not at the moment of logging", async ({ page, signUp, runFunction }) => {
    // A mic that ran yesterday at 8 PM: its last show is always yesterday evening.
    const yesterday = addDays(new TZDate(Date.now(), "America/New_York"), -1);
    const venueName = uniqueWord("Lastnight");
    await runFunction("fixtures:insertSceneItem", {
      title: `Weekly Workout ${venueName}`,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: yesterday.getDay(),
      startTimeLocal: "20:00",
      timeZone: "America/New_York",
    });
    await newComedian(page, signUp);
    await page.goto("/log-set");
    await pickVenue(page, venueName, new RegExp(venueName));
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/log-set\/details$/);
    await expect(page.getByLabel("Date")).toHaveValue(format(yesterday, "yyyy-MM-dd"));
    await expect(page.getByRole("combobox", { name: "Time" })).toHaveText("8:00 PM");
  });
});
