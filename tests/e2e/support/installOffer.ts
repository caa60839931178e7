import type { Page } from "@playwright/test";

/** The browser's install offer, as Chromium sends it when the app is installable (a normal profile; Playwright's are incognito). */
export async function offerInstall(page: Page) {
  await page.evaluate(() => {
    const offer = new Event("beforeinstallprompt", { cancelable: true }) as Event & Record<string, unknown>;
    offer.prompt = async () => {
      (window as unknown as { installPrompted: number }).installPrompted =
        ((window as unknown as { installPrompted?: number }).installPrompted ?? 0) + 1;
    };
    offer.userChoice = Promise.resolve({ outcome: "accepted" });
    window.dispatchEvent(offer);
  });
}
