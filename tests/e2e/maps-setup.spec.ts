import type { Browser, Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";
import { repoRoot } from "./support/backend";
import { freePort, waitForPort } from "./support/ports";
import { readState } from "./support/state";
import { toast } from "./support/ui";

/**
 * Without VITE_GOOGLE_MAPS_API_KEY (the README's offline setup) a wizard's venue step
 * searches the scene quietly; the Maps error toasts are for a key that is set and fails.
 * The README's `npm run dev` serves the app through Vite's dev server, so these journeys
 * run against one started with the key unset, and with a key whose script fails to load.
 */

type DevServer = { url: string; child: ChildProcess };

async function startDevServer(mapsKey: string): Promise<DevServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot, "node_modules/vite/bin/vite.js"),
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--strictPort",
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, VITE_CONVEX_URL: readState().backendUrl, VITE_GOOGLE_MAPS_API_KEY: mapsKey },
      stdio: "ignore",
      detached: true,
    },
  );
  await waitForPort(port, 60_000);
  return { url: `http://127.0.0.1:${port}`, child };
}

function stopDevServer(server: DevServer): void {
  if (server.child.pid === undefined) return;
  try {
    process.kill(-server.child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

async function openVenueStep(
  browser: Browser,
  baseURL: string,
  signIn: (page: Page, creds: { email: string; password: string }) => Promise<void>,
): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // The dev server compiles modules on first request: allow for it.
  page.setDefaultNavigationTimeout(90_000);
  await signIn(page, DEMO_COMEDIAN);
  await page.goto("/add-event");
  await expect(page.getByRole("heading", { level: 1, name: "Add New Event" })).toBeVisible({ timeout: 60_000 });
  return page;
}

test.describe("venue search without a Maps key", () => {
  test.describe.configure({ timeout: 240_000 });

  test("the built app's venue step searches the scene with its hint and no toast", async ({ page, signIn }) => {
    await signIn(page, DEMO_COMEDIAN);
    await page.goto("/add-event");
    await expect(page.getByText("Searching venues already in the scene.", { exact: true })).toBeVisible();
    await page.getByRole("combobox", { name: "Venue" }).fill("comedy");
    await page.waitForTimeout(1000);
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  });

  test("under `npm run dev` with no key: the fallback hint, no 'Configuration Error'; a key that fails still toasts", async ({
    browser,
    signIn,
  }) => {
    const noKey = await startDevServer("");
    try {
      const page = await openVenueStep(browser, noKey.url, signIn);
      await expect(page.getByText("Searching venues already in the scene.", { exact: true })).toBeVisible();
      await page.getByRole("combobox", { name: "Venue" }).fill("comedy");
      // The old toast appeared at once on arrival; give it time to show.
      await page.waitForTimeout(1500);
      await expect(toast(page, "Configuration Error")).toHaveCount(0);
      await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
      await page.context().close();
    } finally {
      stopDevServer(noKey);
    }

    const badKey = await startDevServer("e2e-key-that-fails");
    try {
      const context = await browser.newContext({ baseURL: badKey.url });
      // The Maps script cannot be fetched (offline, or blocked): the spec's load-failure toast.
      await context.route(/maps\.googleapis\.com/, (route) => route.abort());
      const page = await context.newPage();
      page.setDefaultNavigationTimeout(90_000);
      await signIn(page, DEMO_COMEDIAN);
      await page.goto("/add-event");
      await expect(toast(page, "Maps API Error")).toBeVisible({ timeout: 60_000 });
      await expect(toast(page, "Failed to load Google Maps. Searching venues already in the scene.")).toBeVisible();
      await expect(page.getByText("Searching venues already in the scene.", { exact: true })).toBeVisible();
      await context.close();
    } finally {
      stopDevServer(badKey);
    }
  });
});
