import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { card as sceneCard, searchScene } from "./support/sceneList";
import { toast } from "./support/ui";

const uniqueWord = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, "").slice(0, 8)}`;

async function newComedian(page: Page, signUp: (page: Page) => Promise<unknown>) {
  await signUp(page);
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe("add an event", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a new mic shows up live on another browser's scene list, and the duplicate rule holds", async ({
    page,
    browser,
    signUp,
    runFunction,
  }) => {
    const venueName = uniqueWord("Improv");
    const title = `Late Laughs ${venueName}`;

    // Another visitor watches the scene, filtered to this venue.
    const watcherContext = await browser.newContext();
    const watcher = await watcherContext.newPage();
    await watcher.goto("/scene");
    await watcher.getByLabel("Search mics, venues or cities").fill(venueName);
    // The filtered list has answered (empty), not merely not loaded yet.
    await expect(watcher.getByRole("heading", { name: "No events match your filters" })).toBeVisible();
    await expect(watcher.getByRole("heading", { name: title })).toHaveCount(0);

    await newComedian(page, signUp);
    await page.goto("/add-event");
    await expect(page.getByRole("heading", { level: 1, name: "Add New Event" })).toBeVisible();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(toast(page, "Please select a venue")).toBeVisible();
    await expect(page).toHaveURL(/\/add-event$/);
    await page.getByRole("combobox", { name: "Venue" }).fill("ab");
    await expect(page.getByText("Type at least 3 characters")).toBeVisible();

    // Standing in the venue: the browser's location becomes its map position.
    await page.context().grantPermissions(["geolocation"]);
    await page.context().setGeolocation({ latitude: 41.8781, longitude: -87.6298 });
    await page.getByRole("button", { name: "Enter the venue yourself" }).click();
    await page.getByLabel("Venue name").fill(venueName);
    await page.getByLabel("City").fill("Chicago");
    await page.getByRole("checkbox", { name: "I'm at this venue now" }).click();
    // While the venue is typed by hand, the form's own button is the one way on: no wizard
    // Continue beside it to answer the filled fields with "Please select a venue".
    await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
    await page.getByRole("button", { name: "Use this venue" }).click();
    await expect(page.getByLabel("Selected venue")).toContainText(venueName);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/add-event\/event$/);
    await expect(page.getByRole("heading", { name: "What event is it?" })).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(toast(page, "Please make a selection")).toBeVisible();
    await page.getByRole("radio", { name: /Create New Event/ }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/add-event\/details$/);
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Event details" })).toBeVisible();
    await expect(page.getByLabel("Time", { exact: true })).toHaveValue("19:00");
    await expect(page.getByText("How often does this mic happen?")).toBeVisible();
    // One-time shows go only to a comedian's log, never to the scene list.
    await page.getByRole("radio", { name: "Show", exact: true }).click();
    await expect(page.getByText("How often does this show happen?")).toBeVisible();
    await expect(page.getByRole("radio", { name: /One-time/ })).toHaveCount(0);
    await page.getByRole("radio", { name: "Mic", exact: true }).click();
    await expect(page.getByRole("radio", { name: /Weekly/ })).toBeChecked();
    await page.getByRole("radio", { name: /Custom Schedule/ }).click();
    await page.getByLabel("Describe the schedule:").fill("whenever we feel like it");
    await page.getByRole("button", { name: "Save Event" }).click();
    await expect(page.getByText(/Invalid custom recurrence/)).toBeVisible();
    await page.getByLabel("Describe the schedule:").fill("every other Tuesday");
    await page.getByRole("radio", { name: /Weekly/ }).click();
    await page.getByLabel("Event name").fill(title);
    await page.getByRole("radio", { name: "Mic Fee + Minimum", exact: true }).click();
    await expect(page.getByLabel("Mic Fee Amount ($)")).toHaveValue("5");
    await expect(page.getByLabel("Minimum Items")).toHaveValue("1");
    await page.getByRole("button", { name: "Save Event" }).click();

    await expect(toast(page, "Event added!")).toBeVisible();
    await expect(toast(page, `${title} has been added to the scene list and your schedule`)).toBeVisible();
    await expect(page).toHaveURL(/\/add-event\/success$/);
    const summary = page.getByLabel("Event summary");
    await expect(summary).toContainText(title);
    await expect(summary).toContainText(venueName);
    await expect(summary).toContainText("7:00 PM");
    await expect(summary).toContainText("Weekly");

    // Live on the other browser, without a reload.
    await expect(watcher.getByRole("heading", { name: title })).toBeVisible({ timeout: 20_000 });
    // Added seconds ago and not yet confirmed: new, not stale.
    const card = watcher.getByRole("article").filter({ has: watcher.getByRole("heading", { name: title }) });
    await expect(card.getByTestId("freshness")).toHaveAttribute("data-grade", "new");
    await expect(card.getByTestId("freshness")).toContainText("New");
    await watcherContext.close();
    const venues = await runFunction<Array<{ city: string; latitude: number | null; longitude: number | null }>>(
      "venues:search",
      {
        query: venueName,
      },
    );
    expect(venues[0]).toMatchObject({ city: "Chicago", latitude: 41.8781, longitude: -87.6298 });

    // The same venue, day and time again is refused with the spec's message.
    await page.getByRole("button", { name: "Add Another Event" }).click();
    await expect(page).toHaveURL(/\/add-event$/);
    await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
    await page.getByRole("option", { name: new RegExp(venueName) }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("radio", { name: new RegExp(title) })).toBeVisible();

    // Choosing the existing event adds it to the schedule (the creator already has it).
    await page.getByRole("radio", { name: new RegExp(title) }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(toast(page, "Already in schedule")).toBeVisible();

    await page.getByRole("radio", { name: /Create New Event/ }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Save Event" }).click();
    await expect(toast(page, "Could not save event")).toBeVisible();
    await expect(
      toast(
        page,
        new RegExp(
          `An event already exists at ${venueName} on \\w+s at 7:00 PM\\. Please choose a different day or time\\.`,
        ),
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/add-event\/details$/);

    // The mic the wizard put in her schedule says so on its card and its page, with Remove.
    await page.goto("/scene");
    await searchScene(page, title);
    const own = sceneCard(page, title);
    await expect(own.getByText("In your schedule")).toBeVisible();
    await expect(own.getByRole("button", { name: "Add to Schedule" })).toHaveCount(0);
    const [mine] = await runFunction<Array<{ _id: string }>>("venues:eventsAt", { venueName });
    await page.goto(`/event/${mine._id}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("In your schedule")).toBeVisible();
    await expect(page.getByRole("button", { name: `Remove ${title} from your schedule` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to My Schedule" })).toHaveCount(0);
  });

  test("with Google Places the search is US only and waits for 3 characters", async ({ page, signUp }) => {
    await page.route(/maps\.googleapis\.com/, (route) => route.abort());
    await page.addInitScript(() => {
      const requests: unknown[] = [];
      (window as unknown as { __placesRequests: unknown[] }).__placesRequests = requests;
      class AutocompleteService {
        getPlacePredictions(request: { input: string }, callback: (data: unknown[], status: string) => void) {
          requests.push(request);
          setTimeout(() => callback([], "ZERO_RESULTS"), 10);
        }
      }
      class PlacesService {}
      (window as unknown as { google: unknown }).google = { maps: { places: { AutocompleteService, PlacesService } } };
    });
    await newComedian(page, signUp);
    await page.goto("/add-event");
    const search = page.getByRole("combobox", { name: "Venue" });
    await search.fill("Zy");
    await expect(page.getByText("Type at least 3 characters")).toBeVisible();
    await page.waitForTimeout(600);
    const requests = () =>
      page.evaluate(() => (window as unknown as { __placesRequests: Array<Record<string, unknown>> }).__placesRequests);
    expect(await requests()).toHaveLength(0);
    await search.fill("Zyx");
    await expect(page.getByText("No venues found for your search")).toBeVisible();
    expect((await requests()).at(-1)).toMatchObject({
      input: "Zyx",
      types: ["establishment"],
      componentRestrictions: { country: ["us"] },
    });
  });

  test("choosing an event already at the venue adds it to the schedule", async ({ page, signUp, runFunction }) => {
    const venueName = uniqueWord("Chuckle");
    const title = `Sunday Scratch ${venueName}`;
    await runFunction("fixtures:insertSceneItem", {
      title,
      venueName,
      city: "New York",
      type: "open_mic",
      recurrence: "weekly",
      dayOfWeek: 0,
      startTimeLocal: "18:00",
      timeZone: "America/New_York",
    });
    await newComedian(page, signUp);
    await page.goto("/add-event/event");
    // No venue chosen yet: back to the first step.
    await expect(page).toHaveURL(/\/add-event$/);
    await page.getByRole("combobox", { name: "Venue" }).fill(venueName);
    await page.getByRole("option", { name: new RegExp(venueName) }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: new RegExp(title) }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(toast(page, "Added to schedule!")).toBeVisible();
    await expect(page).toHaveURL(/\/schedule$/);
  });
});
