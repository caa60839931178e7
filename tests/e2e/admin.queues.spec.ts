import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";

test.describe.configure({ timeout: 120_000 });

test("an old report buried under 30 newer ones comes with 'Load more'; deactivating clears them all", async ({
  page,
  signIn,
  runFunction,
}) => {
  const tok = `zq${randomUUID().slice(0, 8)}`;
  const title = `Queue Mic ${tok}`;
  const micId = await runFunction<string>("fixtures:insertSceneItem", {
    title,
    venueName: `Queue Room ${tok}`,
    city: "New York",
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 3,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
    costInfo: { type: "free" },
  });
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
  await real.getByRole("button", { name: "Deactivate mic" }).click();
  await expect(toast(page, "Mic deactivated")).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: tok })).toHaveCount(0);
});
