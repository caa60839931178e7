/**
 * StageTime in a basement: a reload without a network shows the app (from the service
 * worker's precache) with this device's copy of the comedian's night, and a set logged
 * there waits in a durable outbox and reaches the server exactly once.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, expect, test } from "./fixtures";
import { createOpenMic, openSceneAt, VENUE } from "./support/scene";
import { toast } from "./support/ui";

test.use({ serviceWorkers: "allow" });

type SavedNight = { lastSets: { venueName: string }[]; myPlace: { sentence?: string }[]; mics?: { title: string }[] };

/** The account's offline copy, as the page's IndexedDB holds it. */
async function savedSnapshot(page: Page): Promise<SavedNight | null> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const open = indexedDB.open("stagetime-offline");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("snapshots")) return resolve(null);
          const all = db.transaction("snapshots").objectStore("snapshots").getAll();
          all.onsuccess = () => resolve(all.result[0] ?? null);
        };
        open.onerror = () => resolve(null);
      }),
  );
}

/** How many sets wait in this device's outbox, as the page's IndexedDB holds them. */
async function outboxSize(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("stagetime-offline");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("outbox")) return resolve(0);
          const count = db.transaction("outbox").objectStore("outbox").count();
          count.onsuccess = () => resolve(count.result);
        };
        open.onerror = () => reject(new Error("the offline database does not open"));
      }),
  );
}

async function swControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve));
    }
  });
}

/**
 * Signs up, favourites the mic `title` (found by `tok`), and waits for the dashboard and for
 * this device's copy to offer the mic offline.
 */
async function followForOffline(
  page: Page,
  signUp: (page: Page) => Promise<{ email: string }>,
  tok: string,
  title: string,
): Promise<string> {
  const { email } = await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await openSceneAt(page, tok);
  await page
    .getByRole("article", { name: title })
    .getByRole("button", { name: `Favorite ${title}` })
    .click();
  await expect(toast(page, "Added to favorites")).toBeVisible();
  await page.goto("/dashboard");
  await swControls(page);
  await expect.poll(async () => (await savedSnapshot(page))?.mics?.map((m) => m.title)).toEqual([title]);
  // The dashboard has loaded before the signal goes (the saved copy can be ready first).
  await expect(page.getByRole("link", { name: "Log a Set" })).toBeVisible();
  return email;
}

/** With the network gone, logs `minutes` at the favourite `title` through the wizard. */
async function logOfflineAt(page: Page, context: BrowserContext, title: string, minutes: number): Promise<void> {
  await context.setOffline(true);
  await page.getByRole("link", { name: "Log a Set" }).click();
  await page.getByRole("radio", { name: new RegExp(title) }).click();
  await expect(page).toHaveURL(/\/log-set\/details$/);
  await page.getByLabel("Minutes on stage").fill(String(minutes));
  await page.getByRole("button", { name: "Save Set" }).click();
  await expect(page.getByRole("heading", { name: "Set saved on this phone" })).toBeVisible();
}

test("offline: the app opens with the saved night, and a set logged there syncs once", async ({
  page,
  context,
  signUp,
  runFunction,
}) => {
  const { email } = await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await swControls(page);
  await expect.poll(() => savedSnapshot(page)).not.toBeNull();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(/^Offline — showing what you had at \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Tonight", exact: true })).toContainText("Nothing scheduled tonight");
  await expect(page.getByRole("region", { name: "Your last sets" })).toContainText("No sets logged yet");

  // Log a set with no network: it waits on the phone, also across a reload.
  const form = page.getByRole("form", { name: "Log a set offline" });
  await form.getByRole("combobox", { name: "Where" }).click();
  await page.getByRole("option", { name: "Somewhere else" }).click();
  await form.getByLabel("Venue").fill("The Basement Bar");
  await form.getByLabel("Minutes").fill("7");
  await form.getByRole("button", { name: "Save set" }).click();
  const waiting = page.getByRole("region", { name: "Sets saved on this phone" });
  await expect(waiting).toContainText("7 min at The Basement Bar");
  await expect(waiting).toContainText("Waiting to sync");
  await page.reload();
  await expect(page.getByRole("region", { name: "Sets saved on this phone" })).toContainText("Waiting to sync");

  // Back online: the outbox empties and the server has the set once.
  await context.setOffline(false);
  await expect
    .poll(async () => (await runFunction<ServerSet[]>("fixtures:setsOf", { email })).length, { timeout: 20_000 })
    .toBe(1);
  await expect(page.getByText(/Waiting to sync/)).toHaveCount(0, { timeout: 20_000 });
  await page.goto("/performance-history");
  await expect(page.getByText("The Basement Bar")).toHaveCount(1);
  await page.reload();
  await expect(page.getByText("The Basement Bar")).toHaveCount(1);

  // The offline copy now has the set among the last sets.
  await expect
    .poll(async () => (await savedSnapshot(page))?.lastSets.map((s) => s.venueName))
    .toContain("The Basement Bar");
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("region", { name: "Your last sets" })).toContainText("The Basement Bar");
});

type ServerSet = { minutes: number; venueName: string | null; sceneItemId: string | null };

test("the log-a-set wizard offline: the set waits on the phone, outlives a reload and a closed tab, and is logged once", async ({
  page,
  context,
  signUp,
  runFunction,
}) => {
  test.setTimeout(120_000);
  const venueName = `Cellar${randomUUID().replace(/-/g, "").slice(0, 8)}`;
  const { email } = await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await swControls(page);
  await expect.poll(() => savedSnapshot(page)).not.toBeNull();

  // The signal goes on the way down the stairs: the wizard still takes the set.
  await context.setOffline(true);
  await page.getByRole("link", { name: "Log a Set" }).click();
  await expect(page.getByText("You're offline. The set is saved on this phone")).toBeVisible();
  await page.getByRole("button", { name: "Enter the venue yourself" }).click();
  await page.getByLabel("Venue name").fill(venueName);
  await page.getByLabel("City").fill("Austin");
  await page.getByRole("button", { name: "Use this venue" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("radio", { name: /New event \/ not listed/ }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/details$/);
  await page.getByLabel("Minutes on stage").fill("9");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/log-set\/venue-details$/);
  await page.getByRole("button", { name: "Save Set" }).click();
  await expect(page.getByRole("heading", { name: "Set saved on this phone" })).toBeVisible();
  await expect(page.getByText(`9 min at ${venueName}`)).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Waiting to sync" })).toBeVisible();
  expect(await runFunction<ServerSet[]>("fixtures:setsOf", { email })).toEqual([]);

  // A reload without a network, then a closed tab: the set is still on the phone.
  await page.reload();
  const waiting = page.getByRole("region", { name: "Sets saved on this phone" });
  await expect(waiting).toContainText(`9 min at ${venueName}`);
  await expect(waiting).toContainText("Waiting to sync");
  await page.close();
  const again = await context.newPage();
  await again.goto("/dashboard");
  await expect(again.getByRole("region", { name: "Sets saved on this phone" })).toContainText(venueName);

  // Back online: sent once, with the new mic added to the scene once.
  await context.setOffline(false);
  await expect
    .poll(() => runFunction<ServerSet[]>("fixtures:setsOf", { email }), { timeout: 20_000 })
    .toEqual([{ minutes: 9, venueName: null, sceneItemId: expect.any(String) }]);
  await expect.poll(() => outboxSize(again)).toBe(0);
  await expect(again.getByText(/Waiting to sync/)).toHaveCount(0);
  await again.reload();
  await expect(again.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await outboxSize(again)).toBe(0);
  await expect(again.getByText(/Waiting to sync/)).toHaveCount(0);
  expect(await runFunction<ServerSet[]>("fixtures:setsOf", { email })).toHaveLength(1);
  const venues = await runFunction<{ itemCount: number }[]>("venues:search", { query: venueName });
  expect(venues.map((v) => v.itemCount)).toEqual([1]);
});

test("a set saved offline at a mic deleted meanwhile is refused: the success page says it was not logged", async ({
  page,
  context,
  signUp,
  runFunction,
}) => {
  const tok = `zr${randomUUID().slice(0, 8)}`;
  const doomed = `Gone Mic ${tok}`;
  const doomedId = await createOpenMic(runFunction, doomed, "Closing Room");
  const email = await followForOffline(page, signUp, tok, doomed);
  await logOfflineAt(page, context, doomed, 4);

  // While the phone is offline an admin deletes the mic: the server refuses the set for good.
  await runFunction("fixtures:removeSceneItem", { id: doomedId, adminEmail: DEMO_ADMIN.email });
  await context.setOffline(false);
  await expect(toast(page, "A set saved offline could not be logged")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Set not logged" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Not logged" })).toContainText(
    "The server refused this set, so it was not logged.",
  );
  await expect(page.getByText(/Waiting to sync/)).toHaveCount(0);
  expect(await runFunction<ServerSet[]>("fixtures:setsOf", { email })).toEqual([]);
  // The device remembers the refusal: a reload still says so, and nothing waits.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Set not logged" })).toBeVisible();
  expect(await outboxSize(page)).toBe(0);
});

test.describe("the night in your pocket", () => {
  // Three browsers on a small shared machine; the mics are New York's, and so is the comedian.
  test.describe.configure({ timeout: 240_000 });
  test.use({ timezoneId: "America/New_York", geolocation: VENUE, permissions: ["geolocation"] });

  test("offline: tonight's followed and scheduled mics, tonight's list with your place, the week and the last sets", async ({
    page,
    context,
    browser,
    signUp,
    signIn,
    runFunction,
  }) => {
    const tok = `zp${randomUUID().slice(0, 8)}`;
    const favourite = `Fav Mic ${tok}`;
    const scheduled = `Sched Mic ${tok}`;
    const favouriteId = await createOpenMic(runFunction, favourite, "Pocket Room");
    await createOpenMic(runFunction, scheduled, "Pocket Hall");

    // The host opens tonight's list at the favourite, three walk-ins first.
    const hostContext = await browser.newContext();
    const host = await hostContext.newPage();
    await signIn(host, DEMO_ADMIN);
    await host.goto(`/event/${favouriteId}`);
    const form = host.getByRole("form", { name: "Open tonight's list" });
    await form.getByLabel("Spots").fill("6");
    await form.getByRole("button", { name: "Open tonight's list" }).click();
    await expect(host.getByText("0 of 6 spots taken")).toBeVisible();
    for (const name of ["Walk-in Ann", "Walk-in Bo", "Walk-in Cy"]) {
      await host.getByLabel("Walk-in name").fill(name);
      await host.getByRole("button", { name: "Add walk-in" }).click();
      await expect(host.getByText(name).first()).toBeVisible();
    }
    await hostContext.close();

    // A comedian with a few sets follows one mic, schedules the other and signs up at the first.
    const { email, name } = await signUp(page);
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await runFunction("fixtures:insertSets", { email, count: 2, venueName: `Last Room ${tok}` });
    await openSceneAt(page, tok);
    await page
      .getByRole("article", { name: favourite })
      .getByRole("button", { name: `Favorite ${favourite}` })
      .click();
    await expect(toast(page, "Added to favorites")).toBeVisible();
    await page.getByRole("article", { name: scheduled }).getByRole("button", { name: "Add to Schedule" }).click();
    await expect(page.getByRole("article", { name: scheduled }).getByText("In your schedule")).toBeVisible();
    await page.goto(`/event/${favouriteId}`);
    await page.getByRole("button", { name: "Sign up for tonight" }).click();
    await expect(page.getByText("You are #4")).toBeVisible();

    await page.goto("/dashboard");
    await swControls(page);
    await expect
      .poll(async () => {
        const saved = await savedSnapshot(page);
        return saved?.myPlace.map((p) => p.sentence);
      })
      .toEqual([`You're #4 on tonight's list at ${favourite}`]);

    // In the basement: the shell, and each part of the night, with the offline note.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(/^Offline — showing what you had at \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible();
    const tonight = page.getByRole("region", { name: "Tonight", exact: true });
    await expect(tonight).toContainText(favourite);
    await expect(tonight).toContainText("Favourite");
    await expect(tonight).toContainText(scheduled);
    const list = page.getByRole("list", { name: `Tonight's list at ${favourite}` });
    await expect(list.getByRole("listitem")).toHaveText([
      "1. Walk-in Ann",
      "2. Walk-in Bo",
      "3. Walk-in Cy",
      `4. ${name} (you)`,
    ]);
    await expect(page.getByRole("region", { name: "Your place on tonight's list" })).toContainText(
      `You're #4 on tonight's list at ${favourite}`,
    );
    await expect(page.getByRole("region", { name: "This week" })).toContainText(scheduled);
    await expect(page.getByRole("region", { name: "Your last sets" })).toContainText(`Last Room ${tok}`);
  });

  test("the wizard offline offers the comedian's own mics; the set is logged at the mic once", async ({
    page,
    context,
    signUp,
    runFunction,
  }) => {
    const tok = `zq${randomUUID().slice(0, 8)}`;
    const favourite = `Fav Mic ${tok}`;
    const favouriteId = await createOpenMic(runFunction, favourite, "Pocket Room");
    const email = await followForOffline(page, signUp, tok, favourite);
    await logOfflineAt(page, context, favourite, 6);

    await page.reload();
    await expect(page.getByRole("region", { name: "Sets saved on this phone" })).toContainText("Waiting to sync");
    await context.setOffline(false);
    // The success page follows the set: once the outbox has sent it, it is logged, with the total.
    await expect(page.getByRole("heading", { name: "Set logged!" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("total-minutes")).toHaveText("6");
    await expect(page.getByText(/Waiting to sync/)).toHaveCount(0);
    await expect
      .poll(() => runFunction<ServerSet[]>("fixtures:setsOf", { email }))
      .toEqual([{ minutes: 6, venueName: null, sceneItemId: favouriteId }]);
  });
});
