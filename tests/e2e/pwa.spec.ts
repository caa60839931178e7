/**
 * StageTime as an installed app: the manifest and service worker register, Chromium finds
 * nothing that would stop an install, and a new build waits for the comedian's "Reload".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { offerInstall } from "./support/installOffer";
import { readState } from "./support/state";
import { expect, test } from "./fixtures";

test.use({ serviceWorkers: "allow" });

/** Waits until the page's service worker is active and controls it. */
async function controlledBy(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve));
    }
    return registration.active!.scriptURL;
  });
}

test("the manifest and service worker register, and Chromium can install the app", async ({
  playwright,
  appUrl,
}, testInfo) => {
  // A profile on disk: Playwright's usual contexts are incognito, where Chromium installs nothing.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-install-"));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    headless: true,
    baseURL: appUrl,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await controlledBy(page)).toBe(`${appUrl}/sw.js`);

    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    expect(manifest.url).toBe(`${appUrl}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const installability = await cdp.send("Page.getInstallabilityErrors");
    expect(installability.installabilityErrors).toEqual([]);

    const served = (await (await page.request.get("/manifest.webmanifest")).json()) as {
      display: string;
      icons: { sizes: string; purpose: string }[];
      shortcuts: { name: string; url: string }[];
    };
    expect(served.display).toBe("standalone");
    expect(served.icons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sizes: "192x192", purpose: "any" }),
        expect.objectContaining({ sizes: "512x512", purpose: "any" }),
        expect.objectContaining({ sizes: "512x512", purpose: "maskable" }),
      ]),
    );
    expect(served.shortcuts.map((s) => [s.name, s.url])).toEqual([
      ["Tonight", "/scene"],
      ["Log a Set", "/log-set"],
    ]);
    for (const icon of ["/icons/icon-192.png", "/icons/icon-512.png", "/icons/maskable-512.png"]) {
      const response = await page.request.get(icon);
      expect(response.headers()["content-type"]).toBe("image/png");
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test("a new build waits for Reload, then serves itself", async ({ page }) => {
  const swFile = path.join(readState().distDir, "sw.js");
  const original = fs.readFileSync(swFile, "utf8");
  await page.goto("/");
  await controlledBy(page);
  try {
    // A deploy: the same app with a changed service worker.
    const marker = `/* build ${Date.now()} */`;
    fs.writeFileSync(swFile, `${original}\n${marker}\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());

    const prompt = page.getByText("A new version is ready");
    await expect(prompt).toBeVisible();
    // Until then the old worker still serves the page.
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    const script = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { waiting: registration.waiting !== null, active: registration.active?.state };
    });
    expect(script).toEqual({ waiting: false, active: "activated" });
    const served = await page.request.get("/sw.js");
    expect(await served.text()).toContain(marker);
  } finally {
    fs.writeFileSync(swFile, original);
  }
});

test("the dashboard offers to install where the browser can; Install asks once, Not now is remembered", async ({
  page,
  signUp,
}) => {
  await signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const card = page.getByRole("region", { name: "Put StageTime on your home screen" });
  // No offer from the browser (iOS, Firefox, an installed app): no card.
  await expect(page.getByRole("heading", { name: "Weekly goal" })).toBeVisible();
  await expect(card).toHaveCount(0);

  await offerInstall(page);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Install" }).click();
  await expect(card).toHaveCount(0);
  // Keyboard focus goes on to the page's main action, not back to the top.
  await expect(page.getByRole("main").getByRole("link", { name: "Log a Set" })).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { installPrompted?: number }).installPrompted)).toBe(1);

  await offerInstall(page);
  await card.getByRole("button", { name: "Not now" }).click();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Weekly goal" })).toBeVisible();
  await offerInstall(page);
  // Two frames: the offer has been rendered by then. Remembered on this device, the card stays away.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(card).toHaveCount(0);
});
