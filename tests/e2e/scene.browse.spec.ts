import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";
import { card, createMic, searchScene, token } from "./support/sceneList";

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
    // Only signed-in comedians can add events: once the session is known to be none, no Add Event.
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
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

test.describe("signed in", () => {
  test("favourite, add to schedule and remove from schedule", async ({ page, signIn, runFunction }) => {
    const tok = token();
    const title = `Sched Mic ${tok}`;
    const micId = await createMic(runFunction, {
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
    // The card now says so, and offers Remove instead of a second add.
    await expect(c.getByText("In your schedule")).toBeVisible();
    await expect(c.getByRole("button", { name: "Add to Schedule" })).toHaveCount(0);
    await c.getByRole("button", { name: `Remove ${title} from your schedule` }).click();
    await expect(toast(page, "Removed from schedule")).toBeVisible();
    await expect(c.getByText("In your schedule")).toHaveCount(0);
    await c.getByRole("button", { name: "Add to Schedule" }).click();
    await expect(c.getByText("In your schedule")).toBeVisible();

    await card(page, noDay).getByRole("button", { name: "Add to Schedule" }).click();
    await expect(toast(page, "This event doesn't have a complete schedule")).toBeVisible();

    // The card's own Remove toasted the same words: let that toast go so this one is the dialog's.
    await expect(toast(page, "Removed from schedule")).toHaveCount(0, { timeout: 20_000 });
    await c.getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.getByRole("button", { name: "Delete Event" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Remove from Schedule" }).click();
    await expect(toast(page, "Removed from schedule")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Remove from Schedule" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(c.getByRole("button", { name: "Add to Schedule" })).toBeVisible();

    // The event page shows the state too: add, then "In your schedule" with Remove.
    await page.goto(`/event/${micId}`);
    await page.getByRole("button", { name: "Add to My Schedule" }).click();
    await expect(page.getByText("In your schedule")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to My Schedule" })).toHaveCount(0);
    await page.getByRole("button", { name: `Remove ${title} from your schedule` }).click();
    await expect(page.getByRole("button", { name: "Add to My Schedule" })).toBeVisible();
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
