import { defineConfig, devices } from "@playwright/test";

// Several people may run the browser tests in one checkout at once: outside CI each run
// writes its artifacts to its own folder (the runner sets this; workers inherit it).
process.env.E2E_RUN_ID ??= process.env.CI ? "" : `run-${process.pid}`;

/**
 * Browser tests drive Debian's Chromium (Playwright's own browser downloads are not available
 * here) against the local backend on a temp data dir and the built app; see
 * tests/e2e/global-setup.ts. Screenshot specs for the README are tagged @screenshots and run
 * only with E2E_SCREENSHOTS=1.
 */
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  // One shared backend and a 2-core machine: run the journeys one after another.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  grepInvert: process.env.E2E_SCREENSHOTS === "1" ? undefined : /@screenshots/,
  reporter: process.env.CI ? [["list"]] : "list",
  outputDir: process.env.E2E_RUN_ID ? `test-results/${process.env.E2E_RUN_ID}` : "test-results",
  use: {
    ...devices["Desktop Chrome"],
    // Set by the global setup; the fixtures read the state file as well.
    baseURL: process.env.E2E_APP_URL,
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // The app's service worker would answer requests before page.route sees them; the
    // journeys that test it (pwa*.spec.ts) allow it themselves.
    serviceWorkers: "block",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
