import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { createOpenMic, expectNoReload, markNoReload } from "./support/scene";
import { toast } from "./support/ui";

// Three browsers (host, comedian, room screen) on a small shared machine.
test.describe.configure({ timeout: 240_000 });

const LIVE = { timeout: 5_000 };

function row(page: Page, list: string, name: string) {
  return page.getByRole("list", { name: list }).locator(`li[data-spot-name="${name}"]`);
}

async function totalSets(page: Page): Promise<number> {
  const text = await page.getByRole("group", { name: "Total Sets" }).innerText();
  return Number(/(\d+)\s*$/.exec(text.trim())?.[1] ?? Number.NaN);
}

test("host, comedian and room screen: sign up, lottery draw, reorder, up now / on deck / done, and the set logged live", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zl${randomUUID().slice(0, 8)}`;
  const title = `List Mic ${tok}`;
  const id = await createOpenMic(runFunction, title, "List Room");

  const host = await (await browser.newContext()).newPage();
  const comedianContext = await browser.newContext();
  const comedian = await comedianContext.newPage();
  const screen = await (await browser.newContext()).newPage();
  await signIn(host, DEMO_ADMIN);
  await signIn(comedian, DEMO_COMEDIAN);

  // The host opens tonight's list as a lottery, with two walk-ins.
  await host.goto(`/event/${id}`);
  const form = host.getByRole("form", { name: "Open tonight's list" });
  await form.getByLabel("Spots").fill("5");
  await form.getByRole("radio", { name: "Lottery" }).click();
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  await expect(host.getByText("0 of 5 spots taken")).toBeVisible(LIVE);
  for (const name of ["Walk-in Wally", "Walk-in Wanda"]) {
    await host.getByLabel("Walk-in name").fill(name);
    await host.getByRole("button", { name: "Add walk-in" }).click();
    await expect(host.getByRole("list", { name: "In the lottery" }).getByText(name)).toBeVisible(LIVE);
  }

  // The room screen and the comedian watch; the comedian signs up into the lottery.
  await screen.goto(`/event/${id}/list/screen`);
  await expect(screen.getByText("2 in the lottery")).toBeVisible(LIVE);
  await comedian.goto(`/event/${id}`);
  for (const p of [host, comedian, screen]) await markNoReload(p);
  await comedian.getByRole("button", { name: "Sign up for tonight" }).click();
  await expect(comedian.getByText(/^In the lottery: the draw is at \d{1,2}:\d{2} [AP]M$/)).toBeVisible(LIVE);
  await expect(screen.getByText("3 in the lottery")).toBeVisible(LIVE);
  await expect(host.getByRole("list", { name: "In the lottery" }).getByText("Dana Demo")).toBeVisible(LIVE);

  // The draw: the server's randomness, with its order shown to everyone.
  await host.getByRole("button", { name: "Draw the lottery now" }).click();
  await host
    .getByRole("alertdialog", { name: "Draw the lottery now?" })
    .getByRole("button", { name: "Draw now" })
    .click();
  const drawOrder = comedian.getByRole("list", { name: "Lottery draw order" });
  await expect(drawOrder.getByRole("listitem")).toHaveCount(3, LIVE);
  await expect(comedian.getByText(/^You(?: are #[1-3]|'re on deck \(#1\))$/)).toBeVisible(LIVE);
  await expect(host.getByText("3 of 5 spots taken")).toBeVisible(LIVE);

  // The host moves the comedian to the top with the keyboard-friendly buttons, and a walk-in by drag and drop.
  for (let i = 0; i < 2; i++) {
    const up = host.getByRole("button", { name: "Move Dana Demo up" });
    if (await up.isDisabled()) break;
    const before = await row(host, "Running order", "Dana Demo").getByText(/^#\d$/).innerText();
    await up.click();
    await expect(row(host, "Running order", "Dana Demo").getByText(/^#\d$/)).not.toHaveText(before, LIVE);
  }
  await expect(row(host, "Running order", "Dana Demo").getByText("#1", { exact: true })).toBeVisible(LIVE);
  await expect(comedian.getByText("You're on deck (#1)")).toBeVisible(LIVE);
  await expect(toast(comedian, "You're on deck")).toBeVisible(LIVE);
  await expect(screen.getByRole("group", { name: "On deck" }).getByText("Dana Demo")).toBeVisible(LIVE);
  const ordered = host.getByRole("list", { name: "Running order" }).locator("li[data-spot-name]");
  const lastName = await ordered.nth(2).getAttribute("data-spot-name");
  await ordered.nth(2).dragTo(ordered.nth(1));
  await expect(ordered.nth(1)).toHaveAttribute("data-spot-name", lastName!, LIVE);

  // The comedian keeps their history and dashboard open in other tabs.
  const history = await comedianContext.newPage();
  await history.goto("/performance-history");
  await expect(history.getByRole("heading", { level: 1, name: "Performance History" })).toBeVisible();
  const dashboard = await comedianContext.newPage();
  await dashboard.goto("/dashboard");
  await expect(dashboard.getByRole("group", { name: "Total Sets" })).toBeVisible();
  const setsBefore = await totalSets(dashboard);
  for (const p of [history, dashboard]) await markNoReload(p);

  // Up now, then done: the set is logged for the comedian by itself.
  await host.getByRole("button", { name: "Dana Demo is up now" }).click();
  await expect(screen.getByRole("group", { name: "Up now" }).getByText("Dana Demo")).toBeVisible(LIVE);
  await expect(comedian.getByText("You're up now")).toBeVisible(LIVE);
  await expect(screen.getByRole("group", { name: "On deck" }).getByText(lastName!)).toBeVisible(LIVE);
  await host.getByRole("button", { name: "Dana Demo's set is done", exact: true }).click();
  await expect(comedian.getByText("Your set is done")).toBeVisible(LIVE);
  await expect(toast(comedian, `Your set at ${title} was logged`)).toBeVisible(LIVE);
  await expect(history.getByText(`List Room ${tok}`).first()).toBeVisible(LIVE);
  await expect.poll(() => totalSets(dashboard), LIVE).toBeGreaterThanOrEqual(setsBefore + 1);
  await expect(screen.getByRole("group", { name: "Up now" }).getByText("—")).toBeVisible(LIVE);

  for (const p of [host, comedian, screen, history, dashboard]) await expectNoReload(p);

  // The list pages pass axe.
  expect(await seriousViolations(host, { excludeToasts: true })).toEqual([]);
  expect(await seriousViolations(comedian, { excludeToasts: true })).toEqual([]);
  expect(await seriousViolations(screen, { excludeToasts: true })).toEqual([]);
  for (const p of [host, comedian, screen]) await p.context().close();
});

test("the list pages fit 375 px", async ({ browser, signIn, runFunction }) => {
  const tok = `zl${randomUUID().slice(0, 8)}`;
  const id = await createOpenMic(runFunction, `Narrow List ${tok}`, "List Room");
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN);
  await page.goto(`/event/${id}`);
  const form = page.getByRole("form", { name: "Open tonight's list" });
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  await page.getByLabel("Walk-in name").fill("Walk-in Wally");
  await page.getByRole("button", { name: "Add walk-in" }).click();
  await expect(page.getByRole("list", { name: "Running order" }).getByText("Walk-in Wally")).toBeVisible(LIVE);
  for (const path of [`/event/${id}`, `/event/${id}/list/screen`]) {
    await page.goto(path);
    await expect(page.getByText("Walk-in Wally").first()).toBeVisible(LIVE);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, path).toBeLessThanOrEqual(375);
  }
  await context.close();
});

test("the host removes any name: a walk-in in the lottery pool and a comedian, who cannot sign up again", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zl${randomUUID().slice(0, 8)}`;
  const id = await createOpenMic(runFunction, `Remove Mic ${tok}`, "List Room");
  const host = await (await browser.newContext()).newPage();
  const comedian = await (await browser.newContext()).newPage();
  await signIn(host, DEMO_ADMIN);
  await signIn(comedian, DEMO_COMEDIAN);

  await host.goto(`/event/${id}`);
  const form = host.getByRole("form", { name: "Open tonight's list" });
  await form.getByRole("radio", { name: "Lottery" }).click();
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  await host.getByLabel("Walk-in name").fill("Spam Sam");
  await host.getByRole("button", { name: "Add walk-in" }).click();
  const pool = host.getByRole("list", { name: "In the lottery" });
  await expect(pool.getByText("Spam Sam")).toBeVisible(LIVE);

  await comedian.goto(`/event/${id}`);
  await comedian.getByRole("button", { name: "Sign up for tonight" }).click();
  await expect(pool.getByText("Dana Demo")).toBeVisible(LIVE);

  // A pool entry comes off before the draw; the keyboard reaches the control.
  await host.getByRole("button", { name: "Remove Spam Sam from the list" }).focus();
  await host.keyboard.press("Enter");
  await expect(pool.getByText("Spam Sam")).toHaveCount(0, LIVE);
  await expect(toast(host, "Spam Sam is off the list")).toBeVisible(LIVE);

  await host.getByRole("button", { name: "Remove Dana Demo from the list" }).click();
  await expect(comedian.getByText("The host took your name off tonight's list.")).toBeVisible(LIVE);
  await expect(comedian.getByRole("button", { name: "Sign up for tonight" })).toHaveCount(0);
  await expect(host.getByRole("list", { name: "In the lottery" })).toHaveCount(0, LIVE);
  for (const p of [host, comedian]) await p.context().close();
});
