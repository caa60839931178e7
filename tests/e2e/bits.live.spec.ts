import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { format } from "date-fns";
import { DEMO_ADMIN, expect, test } from "./fixtures";
import { createOpenMic, expectNoReload, markNoReload } from "./support/scene";
import { toast } from "./support/ui";

const LIVE = { timeout: 10_000 };

/** Adds a bit through the Bits page's "New bit" form. */
async function addBit(page: Page, title: string, length: string) {
  await page.getByRole("button", { name: "New bit" }).first().click();
  const form = page.getByRole("form", { name: "New bit" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Estimated length").fill(length);
  await form.getByRole("button", { name: "Add bit" }).click();
  await expect(toast(page, "Bit added").first()).toBeVisible();
}

function stat(page: Page, label: string) {
  return page.getByRole("group", { name: label, exact: true });
}

test.describe("material on a live-list night", () => {
  // Two browsers (host and comedian) and a dozen pages on a small shared machine.
  test.describe.configure({ timeout: 240_000 });

  test("a set list on a live-list spot: the host marks the set done, the comedian rates the bits and the bit's numbers move live", async ({
    browser,
    signUp,
    signIn,
    runFunction,
  }) => {
    const tok = `zb${randomUUID().slice(0, 8)}`;
    const title = `Bits Mic ${tok}`;
    const id = await createOpenMic(runFunction, title, "Bits Room");
    const name = `Rae ${tok}`;

    // The host opens tonight's list.
    const host = await (await browser.newContext()).newPage();
    await signIn(host, DEMO_ADMIN);
    await host.goto(`/event/${id}`);
    await host
      .getByRole("form", { name: "Open tonight's list" })
      .getByRole("button", { name: "Open tonight's list" })
      .click();
    await expect(host.getByRole("button", { name: "Add walk-in" })).toBeVisible(LIVE);

    // A new comedian, on a phone, writes two bits and takes a spot on the list.
    const comedianContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const comedian = await comedianContext.newPage();
    await signUp(comedian, { name });
    await comedian.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(comedian).toHaveURL(/\/dashboard$/);
    await comedian.getByRole("link", { name: "Bits", exact: true }).click();
    await addBit(comedian, "Airport security", "1:30");
    await addBit(comedian, "Dentist", "45");
    await addBit(comedian, "Pigeons", "30");

    await comedian.goto(`/event/${id}`);
    await comedian.getByRole("button", { name: "Sign up for tonight" }).click();
    await expect(host.getByRole("list", { name: "Running order" }).getByText(name)).toBeVisible(LIVE);

    // The set list, built by tapping bits, attached to that spot.
    await comedian.goto("/set-lists");
    await comedian.getByRole("button", { name: "New set list" }).first().click();
    await comedian.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Tonight's five");
    await comedian.getByRole("button", { name: "Create" }).click();
    await expect(comedian.getByRole("heading", { level: 1, name: "Tonight's five" })).toBeVisible();
    await comedian.getByRole("button", { name: "Add Airport security" }).click();
    await comedian.getByRole("button", { name: "Add Dentist" }).click();
    const order = comedian.getByRole("list", { name: "Running order" });
    await expect(order.getByRole("listitem")).toHaveCount(2);
    const setListUrl = comedian.url();

    await comedian.getByRole("button", { name: "Attach to a night" }).click();
    const attach = comedian.getByRole("dialog", { name: "Attach to a night" });
    await attach.getByRole("combobox", { name: "Night" }).click();
    await comedian.getByRole("option", { name: new RegExp(`^Your spot at ${title} \\(`) }).click();
    await attach.getByRole("button", { name: "Attach" }).click();
    await expect(toast(comedian, "Set list attached")).toBeVisible();
    await expect(comedian.getByText(`For ${title} on `)).toContainText("(live list)");
    // The spot's length now stands beside the estimated total.
    await expect(comedian.getByRole("group", { name: "Estimated length" })).toContainText(/2:15 of \d+:00/);
    // A bit never done at this mic is marked as such among the bits to add.
    await expect(
      comedian.getByRole("list", { name: "Bits to add" }).getByRole("button", { name: "Add Pigeons" }),
    ).toContainText("New here", LIVE);

    // The bit's page is open in another tab, before any set: nothing yet.
    const bitList = await comedianContext.newPage();
    await bitList.goto("/bits");
    await bitList
      .getByRole("list", { name: "Your bits" })
      .getByRole("link", { name: /Airport security/ })
      .click();
    const bitPage = bitList;
    await expect(bitPage.getByRole("heading", { level: 1, name: "Airport security" })).toBeVisible();
    await expect(stat(bitPage, "Times performed")).toContainText("0");
    await expect(stat(bitPage, "Last performed")).toContainText("Never");
    await expect(bitPage.getByRole("term").filter({ hasText: "Best room" })).toHaveCount(0);

    await comedian.goto("/dashboard");
    // The dashboard's own numbers have loaded, so the prompt's query has answered too.
    await expect(comedian.getByTestId("goal-minutes")).toHaveText(/^\d+ of \d+ minutes$/);
    await expect(comedian.getByRole("heading", { name: "How did it go?" })).toHaveCount(0);
    for (const p of [comedian, bitPage]) await markNoReload(p);

    // The host runs the night: up now, then done. The set is logged for the comedian.
    await host.getByRole("button", { name: `${name} is up now` }).click();
    await host.getByRole("button", { name: `${name}'s set is done`, exact: true }).click();

    // "How did it go?" arrives on the open dashboard, for the bits of the attached list.
    const prompt = comedian.getByRole("region", { name: "How did it go?" });
    await expect(prompt).toBeVisible(LIVE);
    await expect(prompt).toContainText("Tonight's five");
    // The same question waits in the inbox; the notice's page offers "Cut it" and Skip as the prompt does.
    const inboxTab = await comedianContext.newPage();
    await inboxTab.goto("/notifications");
    await inboxTab
      .getByRole("list", { name: "Your notifications" })
      .getByRole("link", { name: /^How did it go\?/ })
      .click();
    await expect(inboxTab).toHaveURL(/\/sets\/[^/]+\/bits$/);
    await expect(inboxTab.getByRole("heading", { level: 1, name: "How did it go?" })).toBeVisible();
    await expect(inboxTab.getByText("From the set list Tonight's five")).toBeVisible();
    const asked = inboxTab.getByRole("list", { name: "Bits of the set" });
    await expect(asked.getByRole("listitem")).toHaveCount(2);
    await expect(asked.getByRole("checkbox", { name: "Cut it" })).toHaveCount(2);
    await expect(inboxTab.getByRole("button", { name: "Skip" })).toBeVisible();
    await inboxTab.close();
    const rows = prompt.getByRole("list", { name: "Bits of the set" });
    await expect(rows.getByRole("listitem")).toHaveCount(2);
    const airport = rows.getByRole("listitem", { name: "Airport security" });
    const dentist = rows.getByRole("listitem", { name: "Dentist" });
    await airport.getByRole("radio", { name: "Landed" }).click();
    await airport.getByRole("button", { name: "Add a note on Airport security" }).click();
    await airport.getByRole("textbox", { name: "Note on Airport security" }).fill("Tag about the shoes killed");
    await dentist.getByRole("radio", { name: "Flat" }).click();
    await dentist.getByRole("checkbox", { name: "Cut it" }).click();
    await prompt.getByRole("button", { name: "Save ratings" }).click();
    await expect(toast(comedian, "Ratings saved")).toBeVisible();
    await expect(prompt).toHaveCount(0, LIVE);

    // The open bit page moved by itself: one set, landed every time, the room, today.
    await expect(stat(bitPage, "Times performed")).toContainText("1", LIVE);
    await expect(stat(bitPage, "Landed rate")).toContainText("100%");
    await expect(stat(bitPage, "Landed / okay / flat")).toContainText("1 / 0 / 0");
    await expect(stat(bitPage, "Last performed")).toContainText(format(new Date(), "MMM d"));
    await expect(bitPage.getByLabel("Rooms")).toContainText(`${title} (Bits Room ${tok})`, LIVE);
    await expect(bitPage.getByRole("list", { name: "Last set", exact: true })).toContainText("Landed");
    for (const p of [comedian, bitPage]) await expectNoReload(p);

    // The set in the history says how much landed, with the note kept; "Cut it" took Dentist out of the list.
    await comedian.goto("/performance-history");
    await expect(comedian.getByText("1 of 2 landed").first()).toBeVisible(LIVE);
    await comedian.goto(setListUrl);
    await expect(order.getByRole("listitem")).toHaveCount(1);
    await expect(order.getByRole("listitem").first()).toHaveAccessibleName("1. Airport security");
    await comedian.goto("/bits");
    await comedian
      .getByRole("list", { name: "Your bits" })
      .getByRole("link", { name: /Dentist/ })
      .click();
    await expect(stat(comedian, "Landed rate")).toContainText("0%");
    await expect(stat(comedian, "Landed / okay / flat")).toContainText("0 / 0 / 1");

    for (const p of [host, comedian]) await p.context().close();
  });
});
