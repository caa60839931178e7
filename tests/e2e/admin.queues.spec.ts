import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";

test.describe.configure({ timeout: 120_000 });

/** A free weekly Wednesday open mic in New York with this title and venue; its id. */
async function insertMic(
  runFunction: <T>(name: string, args?: Record<string, unknown>) => Promise<T>,
  title: string,
  venueName: string,
): Promise<string> {
  return await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
    costInfo: { type: "free" },
  });
}

test("an old report buried under 30 newer ones comes with 'Load more'; deactivating clears them all", async ({
  page,
  signIn,
  runFunction,
}) => {
  const tok = `zq${randomUUID().slice(0, 8)}`;
  const title = `Queue Mic ${tok}`;
  const micId = await insertMic(runFunction, title, `Queue Room ${tok}`);
  const email = DEMO_COMEDIAN.email;
  await runFunction("fixtures:insertReports", { micId, email, notes: [`The real problem ${tok}`] });
  const flood = Array.from({ length: 30 }, (_, i) => `Junk ${i} ${tok}`);
  await runFunction("fixtures:insertReports", { micId, email, notes: flood });

  await signIn(page, DEMO_ADMIN);
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Problem Reports" })).toBeVisible();
  await expect(page.getByText(/^\d+ open$/)).toBeVisible();
  const real = page.getByRole("article").filter({ hasText: `The real problem ${tok}` });
  await expect(page.getByRole("article").filter({ hasText: `Junk 29 ${tok}` })).toBeVisible();
  await expect(real).toHaveCount(0);

  await page.getByRole("button", { name: "Load more" }).click();
  await expect(real).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: `Junk 0 ${tok}` })).toBeVisible();

  // Deactivating the mic resolves its open reports: every card of it leaves the queue.
  expect(await runFunction<number>("fixtures:openReportsOf", { micId })).toBe(31);
  await real.getByRole("button", { name: "Deactivate mic" }).click();
  await expect(toast(page, "Mic deactivated")).toBeVisible();
  // The server resolved all 31, and the cards on screen leave the queue live.
  expect(await runFunction<number>("fixtures:openReportsOf", { micId })).toBe(0);
  await expect(page.getByRole("article").filter({ hasText: tok })).toHaveCount(0);
});

test("a pending claim buried under 30 newer ones comes with 'Load more', before any reviewed claim; a loaded-later claim can be approved or denied", async ({
  page,
  signIn,
  runFunction,
}) => {
  const tok = `zc${randomUUID().slice(0, 8)}`;
  const title = `Claimed Mic ${tok}`;
  const micId = await insertMic(runFunction, title, `Claim Room ${tok}`);
  const email = DEMO_COMEDIAN.email;
  await runFunction("fixtures:insertClaims", { micId, email, messages: [`The real host ${tok}`] });
  const flood = Array.from({ length: 30 }, (_, i) => `Flood ${i} ${tok}`);
  await runFunction("fixtures:insertClaims", { micId, email, messages: flood });
  // The newest claim of all, already reviewed (denied, so the mic has no host yet): it waits until
  // every pending claim has shown.
  await runFunction("fixtures:approveClaim", { micId, email, status: "denied" });
  try {
    await pagedClaims(page, signIn, { tok, title });
  } finally {
    // The 29 claims left pending would push the next test's claim off the queue's first page.
    await runFunction("fixtures:deleteClaims", { micId });
  }
});

async function pagedClaims(
  page: Page,
  signIn: (page: Page, account: { email: string; password: string }) => Promise<void>,
  { tok, title }: { tok: string; title: string },
) {
  await signIn(page, DEMO_ADMIN);
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Claims" }).click();
  await expect(page.getByRole("heading", { name: "Mic Claims" })).toBeVisible();
  const cards = page.getByRole("tabpanel", { name: "Claims" }).getByRole("article");
  const claim = (text: string) => cards.filter({ hasText: text });
  const status = (label: string) => page.getByText(label, { exact: true });
  const reviewed = cards.filter({ hasText: title }).filter({ has: status("Denied") });
  await expect(claim(`Flood 29 ${tok}`)).toBeVisible();
  // One page: 25 claims, every one pending; neither the oldest nor the reviewed one yet.
  await expect(cards).toHaveCount(25);
  await expect(cards.filter({ hasNot: status("Pending") })).toHaveCount(0);
  await expect(claim(`Flood 5 ${tok}`)).toBeVisible();
  await expect(claim(`Flood 4 ${tok}`)).toHaveCount(0);
  const real = claim(`The real host ${tok}`);
  await expect(real).toHaveCount(0);
  await expect(reviewed).toHaveCount(0);

  await page.getByRole("button", { name: "Load more" }).click();
  await expect(real).toBeVisible();
  await expect(claim(`Flood 0 ${tok}`)).toBeVisible();
  // Once the pending claims are all in, the reviewed ones follow them (more pages if others wait too).
  for (let i = 0; i < 10 && (await reviewed.count()) === 0; i++) {
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(page.getByRole("button", { name: "Load more" }).or(reviewed).first()).toBeVisible();
  }
  await expect(reviewed).toBeVisible();
  const pendingFlags = await cards.evaluateAll((articles) =>
    articles.map((article) => [...article.querySelectorAll("*")].some((el) => el.textContent === "Pending")),
  );
  const firstReviewed = pendingFlags.indexOf(false);
  expect(firstReviewed).toBeGreaterThan(0);
  expect(pendingFlags.slice(firstReviewed)).not.toContain(true);

  // A claim that came with 'Load more' is approved, another denied: each leaves the pending ones.
  await real.getByRole("button", { name: "Approve" }).click();
  await page
    .getByRole("dialog", { name: /^Approve Claim #\d+$/ })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(toast(page, "Claim approved successfully")).toBeVisible();
  await expect(real.filter({ has: status("Approved") })).toBeVisible();
  await expect(real.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const denied = claim(`Flood 0 ${tok}`);
  await denied.getByRole("button", { name: "Deny" }).click();
  await page
    .getByRole("dialog", { name: /^Deny Claim #\d+$/ })
    .getByRole("button", { name: "Deny" })
    .click();
  await expect(toast(page, "Claim denied successfully")).toBeVisible();
  await expect(denied.filter({ has: status("Denied") })).toBeVisible();
  await expect(denied.getByRole("button", { name: "Deny" })).toHaveCount(0);
}

test("claims on one mic are grouped; approving one makes the rest moot, denied in one action with a reason the claimants see", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zm${randomUUID().slice(0, 8)}`;
  const title = `Contested Mic ${tok}`;
  const micId = await insertMic(runFunction, title, `Contested Room ${tok}`);
  const rivals = `Rival ${tok}`;
  await runFunction("fixtures:insertComedians", { prefix: rivals, count: 2 });
  for (const i of [1, 2]) {
    await runFunction("fixtures:insertClaims", {
      micId,
      email: `rival-${tok}-${i}@bench.test`,
      messages: [`Rival claim ${i} ${tok}`],
    });
  }
  const comedian = await (await browser.newContext()).newPage();
  const admin = await (await browser.newContext()).newPage();
  try {
    await signIn(comedian, DEMO_COMEDIAN);
    await comedian.goto(`/event/${micId}`);
    await comedian.getByRole("button", { name: "Claim this mic" }).click();
    const claimDialog = comedian.getByRole("dialog", { name: "Claim this mic" });
    await claimDialog.getByLabel("Message (optional)").fill(`I run it ${tok}`);
    await claimDialog.getByRole("button", { name: "Submit claim" }).click();
    await expect(comedian.getByText("Pending review")).toBeVisible();

    await signIn(admin, DEMO_ADMIN);
    await admin.goto("/admin");
    await admin.getByRole("tab", { name: "Claims" }).click();
    const group = admin.getByRole("group", { name: `Pending claims for ${title}` });
    await expect(group.getByRole("article")).toHaveCount(3);
    await expect(group.getByText("3 pending claims for this mic")).toBeVisible();

    // Approve with a reason: past its cap the form says so; the claimant sees the reason.
    const mine = group.getByRole("article").filter({ hasText: `I run it ${tok}` });
    await mine.getByRole("button", { name: "Approve" }).click();
    const approve = admin.getByRole("dialog", { name: /^Approve Claim #\d+$/ });
    const reason = approve.getByRole("textbox", { name: "Reason (optional, the claimant sees it)" });
    await reason.fill("x".repeat(501));
    await approve.getByRole("button", { name: "Approve" }).click();
    await expect(approve.getByText("Reason must be 500 characters or fewer")).toBeVisible();
    await reason.fill(`You run the Wednesday list ${tok}`);
    await approve.getByRole("button", { name: "Approve" }).click();
    await expect(toast(admin, "Claim approved successfully")).toBeVisible();
    await expect(comedian.getByText(`The admins said: You run the Wednesday list ${tok}`)).toBeVisible();
    // The mic's listed host follows the approved claim.
    await expect(comedian.getByText("Dana Demo", { exact: true })).toBeVisible();

    // The two other claims are moot: no Approve, and one action denies both with a reason.
    await expect(
      group.getByText(`Dana Demo is the approved host of ${title}, so these 2 claims are moot.`),
    ).toBeVisible();
    await expect(group.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await group.getByRole("button", { name: `Deny the other 2 claims for ${title}` }).click();
    const deny = admin.getByRole("dialog", { name: "Deny the moot claims" });
    await expect(deny.getByRole("textbox")).toHaveValue("Another comedian was approved as this mic's host.");
    await deny.getByRole("button", { name: "Deny 2 claims" }).click();
    await expect(toast(admin, "2 claims denied")).toBeVisible();
    await expect(group).toHaveCount(0);
    const reviewed = admin.getByRole("group", { name: `Reviewed claims for ${title}` });
    await expect(reviewed.getByText("Reason: Another comedian was approved as this mic's host.")).toHaveCount(2);
  } finally {
    await runFunction("fixtures:deleteClaims", { micId });
    for (const p of [comedian, admin]) await p.context().close();
  }
});
