import type { Browser, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { seriousViolations } from "./support/a11y";
import { toast } from "./support/ui";

type Run = <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;

// Two or three browsers sign in per test on a small shared machine.
test.describe.configure({ timeout: 120_000 });

async function createMic(runFunction: Run, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  return await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName: `Admin Room ${title.split(" ").pop()}`,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 2,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
    latitude: 40.7306,
    longitude: -73.9866,
    costInfo: { type: "free" },
    ...extra,
  });
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return await context.newPage();
}

/** Leaves a mark on the window that a reload would wipe. */
async function markNoReload(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

async function openAdminTab(page: Page, tab: "Mics" | "Claims" | "Reports") {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
  await expect(page.getByText("Manage comedy mics and review claims")).toBeVisible();
  if (tab !== "Mics") await page.getByRole("tab", { name: tab }).click();
}

test("a claim reaches the admin live; once approved the comedian edits the mic", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zc${randomUUID().slice(0, 8)}`;
  const title = `Claim Mic ${tok}`;
  const id = await createMic(runFunction, title);

  const comedian = await newPage(browser);
  const admin = await newPage(browser);
  await signIn(comedian, DEMO_COMEDIAN);
  await signIn(admin, DEMO_ADMIN);
  await openAdminTab(admin, "Claims");
  await expect(admin.getByRole("heading", { name: "Mic Claims" })).toBeVisible();
  await expect(admin.getByText("Review and manage venue ownership claims")).toBeVisible();
  await expect(admin.getByText(/^\d+ pending$/)).toBeVisible();
  await markNoReload(admin);

  await comedian.goto(`/event/${id}`);
  await expect(comedian.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await comedian.getByRole("button", { name: "Claim this mic" }).click();
  const dialog = comedian.getByRole("dialog", { name: "Claim this mic" });
  await dialog.getByLabel("Message (optional)").fill(`I host ${tok}`);
  await dialog.getByRole("button", { name: "Submit claim" }).click();
  await expect(toast(comedian, "Claim submitted")).toBeVisible();
  await expect(comedian.getByText("Pending review")).toBeVisible();
  await expect(comedian.getByRole("button", { name: "Claim this mic" })).toHaveCount(0);
  // The claimant sees the claim's short reference, the same the admin's card shows.
  const yourClaim = comedian.getByText(/^Your claim #\d+:$/);
  await expect(yourClaim).toBeVisible();
  const claimNumber = /#(\d+)/.exec((await yourClaim.textContent()) ?? "")![1];

  // The admin's Claims tab shows it within a second, without a reload.
  const card = admin.getByRole("article").filter({ hasText: `I host ${tok}` });
  await expect(card).toBeVisible({ timeout: 1000 });
  await expect(card.getByRole("heading", { name: `Claim #${claimNumber}`, exact: true })).toBeVisible();
  // Every card has its own reference.
  const refs = await admin
    .getByRole("article")
    .getByRole("heading", { name: /^Claim #\d+$/ })
    .allTextContents();
  expect(refs.length).toBeGreaterThan(0);
  expect(new Set(refs).size).toBe(refs.length);
  await expect(card.getByRole("link", { name: title })).toHaveAttribute("href", `/event/${id}`);
  await expect(card.getByText("Pending", { exact: true })).toBeVisible();
  await expect(card.getByText(/^Submitted [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  await expect(card.getByText(/Claimant: /)).toBeVisible();

  await card.getByRole("button", { name: "Approve" }).click();
  await admin
    .getByRole("dialog", { name: `Approve Claim #${claimNumber}` })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(toast(admin, "Claim approved successfully")).toBeVisible();
  await expect(card.getByText("Approved", { exact: true })).toBeVisible();
  await expect(card.getByText(/^Reviewed [A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M$/)).toBeVisible();
  await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expectNoReload(admin);

  // The comedian's page offers the owner tools as soon as the claim is approved.
  await markNoReload(comedian);
  await comedian.getByRole("button", { name: "Edit mic details" }).click();
  const form = comedian.getByRole("form", { name: "Edit mic details" });
  await form.getByLabel("Title").fill(`Owned Mic ${tok}`);
  await form.getByLabel("Host name").fill("Casey Host");
  await form.getByRole("button", { name: "Save details" }).click();
  await expect(toast(comedian, "Mic details saved")).toBeVisible();
  await expect(comedian.getByRole("heading", { level: 1, name: `Owned Mic ${tok}` })).toBeVisible();

  // Cancel tonight: every visitor of the event page sees it.
  await comedian.getByRole("button", { name: "Cancel this night" }).click();
  await comedian.getByRole("alertdialog").getByRole("button", { name: "Cancel this night" }).click();
  await expect(comedian.getByText("Cancelled tonight")).toBeVisible();
  await expectNoReload(comedian);
  const visitor = await newPage(browser);
  await visitor.goto(`/event/${id}`);
  await expect(visitor.getByText("Cancelled tonight")).toBeVisible();

  // The admin revokes the approved claim, after confirming; the comedian loses the owner tools live.
  await markNoReload(admin);
  await card.getByRole("button", { name: `Revoke Claim #${claimNumber}` }).click();
  const confirm = admin.getByRole("alertdialog", { name: "Revoke claim" });
  await expect(confirm).toContainText("will no longer be able to manage this mic");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(card.getByText("Approved", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: `Revoke Claim #${claimNumber}` }).click();
  await admin.getByRole("alertdialog", { name: "Revoke claim" }).getByRole("button", { name: "Revoke" }).click();
  await expect(toast(admin, "Claim revoked successfully")).toBeVisible();
  await expect(card.getByText("Revoked", { exact: true })).toBeVisible();
  await expect(card.getByText(/^Revoked [A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M$/)).toBeVisible();
  await expect(card.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expectNoReload(admin);
  await expect(comedian.getByRole("button", { name: "Edit mic details" })).toHaveCount(0);
  await expect(comedian.getByText(`Your claim #${claimNumber}:`)).toBeVisible();
  await expect(comedian.getByText("Revoked", { exact: true })).toBeVisible();
  await expect(comedian.getByRole("button", { name: "Claim this mic" })).toBeVisible();
  await expectNoReload(comedian);

  for (const p of [comedian, admin, visitor]) await p.context().close();
});

test("a problem report reaches the admin live; deactivating takes the mic off its page", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zr${randomUUID().slice(0, 8)}`;
  const title = `Report Mic ${tok}`;
  const id = await createMic(runFunction, title);

  const comedian = await newPage(browser);
  const admin = await newPage(browser);
  await signIn(comedian, DEMO_COMEDIAN);
  await signIn(admin, DEMO_ADMIN);
  await openAdminTab(admin, "Reports");
  await markNoReload(admin);

  await comedian.goto(`/event/${id}`);
  await comedian.getByRole("button", { name: "Report a problem" }).click();
  const dialog = comedian.getByRole("dialog", { name: "Report a problem" });
  await dialog.getByRole("radio", { name: "Other" }).click();
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog.getByText("Please describe the problem")).toBeVisible();
  await dialog.getByRole("radio", { name: "This mic no longer runs" }).click();
  await dialog.getByLabel("Note (optional)").fill(`Closed for good ${tok}`);
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(toast(comedian, "Report sent")).toBeVisible();

  const card = admin.getByRole("article", { name: `Report on ${title}` });
  await expect(card).toBeVisible({ timeout: 1000 });
  await expect(card.getByText("This mic no longer runs")).toBeVisible();
  await expect(card.getByText(`Closed for good ${tok}`)).toBeVisible();

  await markNoReload(comedian);
  await card.getByRole("button", { name: "Deactivate mic" }).click();
  await expect(toast(admin, "Mic deactivated")).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(comedian.getByText("Event not found")).toBeVisible({ timeout: 2000 });
  await expectNoReload(comedian);
  await expectNoReload(admin);

  for (const p of [comedian, admin]) await p.context().close();
});

test("editing a mic in admin updates an open scene page live; inactive and deleted mics leave it", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `ze${randomUUID().slice(0, 8)}`;
  const title = `Edit Mic ${tok}`;
  const id = await createMic(runFunction, title);

  const visitor = await newPage(browser);
  await visitor.goto("/scene");
  await visitor.getByLabel("Search mics, venues or cities").fill(tok);
  await expect(visitor.getByRole("article", { name: title })).toBeVisible();
  await markNoReload(visitor);

  const admin = await newPage(browser);
  await signIn(admin, DEMO_ADMIN);
  await openAdminTab(admin, "Mics");
  const adminSearch = admin.getByLabel("Search mics, venues, or cities");
  // The scene's rule: every word must start a word of the title, venue or city.
  await adminSearch.fill(`adm ${tok} york`);
  await expect(admin.getByText("1 mic", { exact: true })).toBeVisible();
  await adminSearch.fill(`${tok} velvet`);
  await expect(admin.getByText("No mics found matching your search.")).toBeVisible();
  await adminSearch.fill(tok);
  await expect(admin.getByText("1 mic", { exact: true })).toBeVisible();
  const card = admin.getByRole("article", { name: title });
  await expect(card.getByText("Open Mic")).toBeVisible();
  await expect(card.getByText("Tuesday")).toBeVisible();
  await expect(card.getByText("8:00 PM")).toBeVisible();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card.getByText("0 check-ins")).toBeVisible();

  await card.getByRole("button", { name: `Edit ${title}` }).click();
  const form = admin.getByRole("form", { name: `Edit ${title}` });
  await form.getByLabel("Title").fill(`Renamed ${tok}`);
  await form.getByRole("combobox", { name: "Cost" }).click();
  await admin.getByRole("option", { name: "Cover (mic fee)" }).click();
  await expect(form.getByLabel("Mic fee ($)")).toHaveValue("5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(toast(admin, "Mic updated successfully")).toBeVisible();

  // The open scene page follows without a reload.
  await expect(visitor.getByRole("article", { name: `Renamed ${tok}` })).toBeVisible({ timeout: 1000 });
  const saved = await runFunction<{ costInfo: unknown; title: string }>("scene:get", { id });
  expect(saved).toMatchObject({ title: `Renamed ${tok}`, costInfo: { type: "cover", coverAmount: 5 } });

  // Inactive: gone from the scene at once, still listed for the admin.
  const renamed = admin.getByRole("article", { name: `Renamed ${tok}` });
  await renamed.getByRole("button", { name: `Edit Renamed ${tok}` }).click();
  const statusForm = admin.getByRole("form", { name: `Edit Renamed ${tok}` });
  await statusForm.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Inactive" }).click();
  await statusForm.getByRole("button", { name: "Save" }).click();
  await expect(statusForm).toHaveCount(0);
  await expect(renamed.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(visitor.getByRole("article", { name: `Renamed ${tok}` })).toHaveCount(0, { timeout: 1000 });
  await expectNoReload(visitor);

  // Delete asks first.
  await renamed.getByRole("button", { name: `Delete Renamed ${tok}` }).click();
  const confirm = admin.getByRole("alertdialog");
  await expect(confirm).toContainText(`Are you sure you want to delete "Renamed ${tok}"?`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(admin, "Mic deleted successfully")).toBeVisible();
  await expect(admin.getByText("No mics found matching your search.")).toBeVisible();

  for (const p of [visitor, admin]) await p.context().close();
});

test("Fix Coordinates reports what it updated and what failed", async ({ browser, signIn, runFunction }) => {
  const tok = `zg${randomUUID().slice(0, 8)}`;
  await createMic(runFunction, `No Coords ${tok}`, { latitude: undefined, longitude: undefined });
  const admin = await newPage(browser);
  await signIn(admin, DEMO_ADMIN);
  await openAdminTab(admin, "Mics");
  await admin.getByRole("button", { name: "Fix Coordinates" }).click();
  // The test backend has no GOOGLE_MAPS_API_KEY: every item without coordinates fails, nothing throws.
  await expect(toast(admin, "Coordinate Update Complete")).toContainText(/Updated 0 venues, [1-9]\d* failed/);
  await expect(admin.getByRole("button", { name: "Fix Coordinates" })).toBeEnabled();
  await admin.context().close();
});

test("Edit mic on a report opens the mic in the Mics tab and resolves the report once saved", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zf${randomUUID().slice(0, 8)}`;
  const title = `Wrong Time Mic ${tok}`;
  const id = await createMic(runFunction, title);
  const comedian = await newPage(browser);
  const admin = await newPage(browser);
  await signIn(comedian, DEMO_COMEDIAN);
  await signIn(admin, DEMO_ADMIN);

  await comedian.goto(`/event/${id}`);
  await comedian.getByRole("button", { name: "Report a problem" }).click();
  const dialog = comedian.getByRole("dialog", { name: "Report a problem" });
  await dialog.getByRole("radio", { name: "Wrong day or time" }).click();
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(toast(comedian, "Report sent")).toBeVisible();

  await openAdminTab(admin, "Reports");
  const report = admin.getByRole("article", { name: `Report on ${title}` });
  await expect(report.getByText("Wrong day or time")).toBeVisible();
  await report.getByRole("button", { name: "Edit mic" }).click();
  await expect(admin.getByRole("tab", { name: "Mics" })).toHaveAttribute("aria-selected", "true");
  const form = admin.getByRole("form", { name: `Edit ${title}` });
  await form.getByRole("combobox", { name: "Day" }).click();
  await admin.getByRole("option", { name: "Thursday" }).click();
  await form.getByLabel("Time").fill("21:30");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(toast(admin, "Mic updated successfully")).toBeVisible();
  await expect(admin.getByRole("article", { name: title }).getByText("9:30 PM")).toBeVisible();

  // The comedian's open event page shows the new schedule, and the report is closed.
  await expect(comedian.getByText(/Thursday/).first()).toBeVisible({ timeout: 2000 });
  await admin.getByRole("tab", { name: "Reports" }).click();
  await expect(admin.getByRole("heading", { name: "Problem Reports" })).toBeVisible();
  // The heading shows while the list still loads: wait for the list itself (cards or its empty state).
  const reports = admin.getByRole("tabpanel", { name: "Reports" });
  await expect(reports.getByRole("article").or(reports.getByText("No open reports.")).first()).toBeVisible();
  await expect(report).toHaveCount(0);
  for (const p of [comedian, admin]) await p.context().close();
});

test("the admin tabs and the event page's owner tools have no serious accessibility violations", async ({
  page,
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `za${randomUUID().slice(0, 8)}`;
  const id = await createMic(runFunction, `Axe Mic ${tok}`);
  // A comedian's tools: report a problem, claim the mic.
  const comedian = await (await browser.newContext()).newPage();
  await signIn(comedian, DEMO_COMEDIAN);
  await comedian.goto(`/event/${id}`);
  await expect(comedian.getByRole("button", { name: "Claim this mic" })).toBeVisible();
  expect(await seriousViolations(comedian)).toEqual([]);
  await comedian.getByRole("button", { name: "Report a problem" }).click();
  await expect(comedian.getByRole("dialog", { name: "Report a problem" })).toBeVisible();
  expect(await seriousViolations(comedian)).toEqual([]);
  await comedian.keyboard.press("Escape");
  await comedian.getByRole("button", { name: "Claim this mic" }).click();
  await comedian.getByRole("dialog", { name: "Claim this mic" }).getByRole("button", { name: "Submit claim" }).click();
  await expect(comedian.getByText("Pending review")).toBeVisible();
  // The toast fades in and out (its contrast is the toaster's concern, checked elsewhere).
  await expect(toast(comedian, "Claim submitted")).toHaveCount(0, { timeout: 15_000 });
  expect(await seriousViolations(comedian)).toEqual([]);
  await comedian.context().close();

  // An admin has the host's tools on the event page.
  await signIn(page, DEMO_ADMIN);
  await page.goto(`/event/${id}`);
  await expect(page.getByRole("heading", { name: "Manage this mic" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Claim this mic" })).toHaveCount(0);
  await page.getByRole("button", { name: "Edit mic details" }).click();
  await expect(page.getByRole("form", { name: "Edit mic details" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await openAdminTab(page, "Mics");
  await page.getByLabel("Search mics, venues, or cities").fill(tok);
  await page.getByRole("button", { name: `Edit Axe Mic ${tok}` }).click();
  await expect(page.getByRole("form", { name: `Edit Axe Mic ${tok}` })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  for (const tab of ["Claims", "Reports"]) {
    await page.getByRole("tab", { name: tab }).click();
    await page.waitForLoadState("networkidle");
    expect(await seriousViolations(page)).toEqual([]);
  }
  // And in dark mode.
  await page.emulateMedia({ colorScheme: "dark" });
  for (const tab of ["Mics", "Claims", "Reports"]) {
    await page.getByRole("tab", { name: tab }).click();
    await page.waitForLoadState("networkidle");
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test.describe("375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("the admin dashboard, a mic in edit mode and the owner tools fit without horizontal scrolling", async ({
    page,
    signIn,
    runFunction,
  }) => {
    const tok = `zm${randomUUID().slice(0, 8)}`;
    const title = `Narrow Mic ${tok}`;
    const id = await createMic(runFunction, title);
    const fits = async () => {
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(375);
    };
    await signIn(page, DEMO_ADMIN);
    await page.goto(`/event/${id}`);
    await expect(page.getByRole("button", { name: "Report a problem" })).toBeVisible();
    await fits();
    await openAdminTab(page, "Mics");
    await page.getByLabel("Search mics, venues, or cities").fill(tok);
    await page.getByRole("button", { name: `Edit ${title}` }).click();
    await expect(page.getByRole("form", { name: `Edit ${title}` })).toBeVisible();
    await fits();
    for (const tab of ["Claims", "Reports"]) {
      await page.getByRole("tab", { name: tab }).click();
      await fits();
    }
  });
});
