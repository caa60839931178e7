import type { Page } from "@playwright/test";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Credentials } from "./fixtures";
import { repoRoot } from "./support/backend";
import { readState } from "./support/state";
import { toast } from "./support/ui";

/*
 * The pages' load-failure states, against the real backend with nothing of ours mocked.
 * A backend that is down makes the client reconnect rather than fail, so each test puts the
 * database into a state the code cannot read: data that passes the schema but breaks an
 * assumption (one stats row per comedian, a time zone the browser knows), written with the
 * backend CLI's own `export` / `import` (the operator's tools) and put back afterwards.
 */

const execFileAsync = promisify(execFile);

type Snapshot = { tables: Record<string, Array<Record<string, unknown>>>; files?: unknown };

/** Runs the backend CLI against the running test backend. */
async function backendCli(...args: string[]): Promise<string> {
  const { dataDir, backendPort } = readState();
  const { stdout } = await execFileAsync(
    process.execPath,
    [
      path.join(repoRoot, "local-backend/src/backend.mjs"),
      ...args,
      "--data-dir",
      dataDir,
      "--port",
      String(backendPort),
      "--functions",
      path.join(repoRoot, "convex"),
    ],
    { cwd: repoRoot, timeout: 120_000, maxBuffer: 256 * 1024 * 1024 },
  );
  return stdout;
}

/**
 * Exports the database, lets `change` edit the snapshot, imports it, runs `body`, and always
 * imports the untouched export again, so the shared backend ends as it was.
 */
async function withChangedDatabase(change: (snapshot: Snapshot) => void, body: () => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-errors-"));
  const original = path.join(dir, "original.json");
  const changed = path.join(dir, "changed.json");
  try {
    await backendCli("export", original);
    const snapshot = JSON.parse(fs.readFileSync(original, "utf8")) as Snapshot;
    change(snapshot);
    fs.writeFileSync(changed, JSON.stringify(snapshot));
    await backendCli("import", changed);
    try {
      await body();
    } finally {
      await backendCli("import", original);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A new document id for `table` in the local backend's format (a counter, then the table name),
 * past every id in the snapshot so the backend will not hand it out again.
 */
function freshId(snapshot: Snapshot, table: string, serial: number): string {
  let max = 0;
  for (const docs of Object.values(snapshot.tables)) {
    for (const doc of docs) max = Math.max(max, Number(/^[0-9]+/.exec(String(doc._id))?.[0] ?? 0));
  }
  return String(max + 100 + serial).padStart(32 - table.length, "0") + table;
}

function userIdByEmail(snapshot: Snapshot, email: string): string {
  const user = snapshot.tables.users?.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email} in the export`);
  return user._id as string;
}

/** Signs up a comedian and skips onboarding, so the dashboard is theirs. */
async function comedianOnDashboard(page: Page, signUp: (page: Page) => Promise<Credentials>): Promise<Credentials> {
  const creds = await signUp(page);
  await expect(page).toHaveURL(/\/onboarding\/welcome$/);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("goal-minutes")).toBeVisible();
  return creds;
}

test.describe("load failures", () => {
  test.describe.configure({ timeout: 180_000 });

  test("the dashboard: 'Error loading data' toast and a callout when the summary query fails", async ({
    page,
    browser,
    signUp,
    signIn,
  }) => {
    const creds = await comedianOnDashboard(page, signUp);
    const email = creds.email;
    await page.goto("/scene");

    await withChangedDatabase(
      (snapshot) => {
        // Two stats rows for one comedian: the summary reads exactly one and throws.
        const userId = userIdByEmail(snapshot, email);
        const now = Date.now();
        snapshot.tables.userStats ??= [];
        for (const serial of [1, 2]) {
          snapshot.tables.userStats.push({
            _id: freshId(snapshot, "userStats", serial),
            _creationTime: now + serial,
            userId,
            totalMinutes: 0,
            totalSets: 0,
            uniqueVenues: 0,
            currentStreak: 0,
            longestStreak: 0,
            venuesAdded: 0,
          });
        }
      },
      async () => {
        // Signed in afresh: the import may roll back a token refresh of the first page, and a
        // session whose refresh is gone now ends (sign-out revokes tokens).
        const context = await browser.newContext();
        const broken = await context.newPage();
        await signIn(broken, creds);
        await broken.goto("/dashboard");
        // Signed in, yet the data cannot be loaded.
        await expect(
          broken
            .getByRole("alert")
            .filter({ hasText: "Failed to load your performance data. Please reload the page." }),
        ).toBeVisible({
          timeout: 20_000,
        });
        await expect(toast(broken, "Error loading data")).toBeVisible();
        await expect(toast(broken, "Failed to load your performance data.")).toBeVisible();
        await expect(broken.getByTestId("goal-minutes")).toHaveCount(0);
        await context.close();
      },
    );
    // Put back, the comedian's dashboard loads again (in a fresh browser: putting the database
    // back may also have rolled back a session refresh of the first one).
    const context = await browser.newContext();
    const fresh = await context.newPage();
    await signIn(fresh, creds);
    await fresh.goto("/dashboard");
    await expect(fresh.getByTestId("goal-minutes")).toHaveText("0 of 15 minutes", { timeout: 20_000 });
    await context.close();
  });

  test("/event/{id}: 'Failed to load event' and Back to Scene when the event cannot be loaded", async ({
    page,
    runFunction,
  }) => {
    const tok = randomUUID().slice(0, 8);
    let eventId = "";
    await withChangedDatabase(
      (snapshot) => {
        // A mic whose stored time zone no browser knows (a hand-written zone from an old import).
        const now = Date.now();
        const id = freshId(snapshot, "sceneItems", 1);
        const title = `Broken Zone Mic ${tok}`;
        snapshot.tables.sceneItems.push({
          _id: id,
          _creationTime: now,
          title,
          venueName: `Nowhere Room ${tok}`,
          city: "Nowhere",
          type: "open_mic",
          dayOfWeek: 1,
          startTimeLocal: "19:30",
          recurrence: "weekly",
          signupMethod: "in_person",
          costInfo: { type: "free" },
          performanceMinutes: 5,
          timeZone: "Pacific Time",
          status: "active",
          checkInCount: 0,
          verifiedCheckIns30d: 0,
          searchText: `${title} nowhere room ${tok} nowhere`.toLowerCase(),
        });
        eventId = id;
      },
      async () => {
        // The query itself answers: the item exists and is active.
        const item = await runFunction<{ title: string } | null>("scene:get", { id: eventId });
        expect(item?.title).toBe(`Broken Zone Mic ${tok}`);

        await page.goto(`/event/${eventId}`);
        await expect(page.getByRole("alert").filter({ hasText: "Failed to load event" })).toBeVisible({
          timeout: 20_000,
        });
        await expect(page.getByText("Event not found")).toHaveCount(0);
        await page.getByRole("link", { name: "Back to Scene" }).click();
        await expect(page).toHaveURL(/\/scene/);
      },
    );
  });
});
