import type { Locator, Page } from "@playwright/test";

/** A visible toast (sonner) whose text includes `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/** The top navigation bar. */
export function topBar(page: Page): Locator {
  return page.getByRole("banner");
}

/** The page's main heading. */
export function mainHeading(page: Page): Locator {
  return page.getByRole("heading", { level: 1 });
}

/** Opens the signed-in user's avatar menu in the top bar. */
export async function openAvatarMenu(page: Page): Promise<void> {
  await topBar(page).getByRole("button", { name: "Account menu" }).click();
}
