import path from "node:path";
import { randomUUID } from "node:crypto";
import { copyFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";
import { createNight, nowInZone, skipNearMidnight } from "./support/scene";

/**
 * The README's "A mic's numbers" and "Season in review" images: a mic's numbers on its event page,
 * the short line on a Tonight row, the season page and its card. Not part of `npm test`:
 * `E2E_SCREENSHOTS=1 npx playwright test tests/e2e/numbers.screenshots.spec.ts`.
 */
test.describe("README screenshots, numbers @screenshots", () => {
  test.use({ viewport: { width: 390, height: 844 }, colorScheme: "light", timezoneId: "America/New_York" });
  const shot = (name: string) => path.join(repoRoot, "docs/screenshots", name);

  test("a mic's numbers, its short line on Tonight, and a season in review", async ({ page, signUp, runFunction }) => {
    test.setTimeout(150_000);
    const tok = randomUUID().slice(0, 6);
    skipNearMidnight();
    const title = `Cellar Tryouts ${tok}`;
    const micId = await createNight(runFunction, title, 45, {
      venueName: `The Cellar ${tok}`,
      listTimeLocal: nowInZone("America/New_York", 15 * 60_000).hhmm,
    });
    await runFunction("fixtures:insertMicNights", { micId, nights: 8, spots: 12, signUps: 17, firstSetLate: 15 });

    await page.goto(`/event/${micId}`);
    const numbers = page.getByRole("region", { name: "This mic by the numbers" });
    await expect(numbers.getByLabel("This mic's numbers")).toContainText("17 for 12 spots");
    await numbers.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("mic-numbers.png") });

    await page.goto("/scene");
    const row = page.getByTestId("tonight-night").filter({ hasText: title });
    await expect(row).toContainText(/first set ~15 min late/i);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("tonight-numbers-line.png") });

    const { email } = await signUp(page, { name: "Sasha Season" });
    await page.getByRole("button", { name: "Skip onboarding" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const lastYear = new Date().getFullYear() - 1;
    const sets = [
      ["01-14", 5],
      ["02-03", 6],
      ["03-04", 5],
      ["03-05", 7],
      ["03-06", 7],
      ["04-01", 8],
      ["06-12", 10],
      ["09-20", 7],
      ["11-02", 12],
    ] as const;
    await runFunction("fixtures:insertSeasonSets", {
      email,
      sets: sets.map(([day, minutes], i) =>
        i % 3 === 2
          ? { date: `${lastYear}-${day}`, minutes, venueName: "The Basement" }
          : { date: `${lastYear}-${day}`, minutes, micId },
      ),
    });
    await page.goto(`/season?from=${lastYear}-01&to=${lastYear}-12`);
    await expect(page.getByRole("group", { name: "Sets", exact: true })).toContainText(String(sets.length));
    await page.screenshot({ path: shot("season.png"), fullPage: true });

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download card" }).click();
    await copyFile((await (await downloading).path())!, shot("season-card.png"));
  });
});
