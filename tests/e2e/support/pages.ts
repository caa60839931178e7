import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect } from "../fixtures";
import { createOpenMic } from "./scene";

/** What a page visit may use from the fixtures. */
export type VisitHelpers = {
  signIn: (page: Page, creds: { email: string; password: string }) => Promise<void>;
  signUp: (page: Page) => Promise<unknown>;
  runFunction: <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;
};

/** One page of the app as a given kind of visitor, for the whole-app checks (axe, 375 px). */
export type PageVisit = {
  name: string;
  /** Signs in if needed and navigates; resolves once the page is on screen. */
  open: (page: Page, helpers: VisitHelpers) => Promise<void>;
  /** Accessible name of the page's h1. */
  heading: string | RegExp;
  /** The visit itself raises a toast (left out of the scan: one caught mid-fade reads as low contrast). */
  toasts?: boolean;
};

async function firstSceneItemId(helpers: VisitHelpers): Promise<string> {
  const { page } = await helpers.runFunction<{ page: Array<{ _id: string }> }>("scene:listPage", {
    type: "all",
    day: null,
    search: "",
    paginationOpts: { numItems: 1, cursor: null },
  });
  if (!Array.isArray(page) || page.length === 0) throw new Error("The seeded scene is empty");
  return page[0]._id;
}

/** Signs in as the demo admin and opens tonight's list (with a walk-in) on a new mic starting now. */
async function openTonightsList(page: Page, helpers: VisitHelpers): Promise<string> {
  const id = await createOpenMic(helpers.runFunction, `Checked Mic ${Date.now().toString(36)}`, "Checked Room");
  await helpers.signIn(page, DEMO_ADMIN);
  await page.goto(`/event/${id}`);
  const form = page.getByRole("form", { name: "Open tonight's list" });
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  await page.getByLabel("Walk-in name").fill("Maya Chen");
  await page.getByRole("button", { name: "Add walk-in" }).click();
  await expect(page.getByRole("list", { name: "Running order" }).getByText("Maya Chen")).toBeVisible();
  // Back to the top, where a visitor lands.
  await page.evaluate(() => window.scrollTo(0, 0));
  return id;
}

/** A new comedian with one bit in one set list; the set list's address. */
async function withMaterial(page: Page, helpers: VisitHelpers): Promise<string> {
  await helpers.signUp(page);
  await page.getByRole("button", { name: "Skip onboarding" }).click();
  await page.goto("/bits");
  await page.getByRole("button", { name: "New bit" }).first().click();
  const form = page.getByRole("form", { name: "New bit" });
  await form.getByLabel("Title").fill("Airport security");
  await form.getByLabel("Tags").fill("travel");
  await form.getByLabel("Estimated length").fill("1:30");
  await form.getByRole("button", { name: "Add bit" }).click();
  await expect(form).toHaveCount(0);
  await page.goto("/set-lists");
  await page.getByRole("button", { name: "New set list" }).first().click();
  await page.getByRole("form", { name: "New set list" }).getByLabel("Name").fill("Tonight's five");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "Add Airport security" }).click();
  await expect(page.getByRole("list", { name: "Running order" }).getByRole("listitem")).toHaveCount(1);
  return new URL(page.url()).pathname;
}

const signedIn = (path: string) => async (page: Page, helpers: VisitHelpers) => {
  await helpers.signIn(page, DEMO_COMEDIAN);
  await page.goto(path);
};

/** Every page the foundation issue promises works (at 375 px, and without serious axe violations). */
export const pageVisits: PageVisit[] = [
  { name: "landing", heading: /Track your stage time/, open: async (page) => void (await page.goto("/")) },
  { name: "auth", heading: /.+/, open: async (page) => void (await page.goto("/auth")) },
  { name: "scene", heading: "Comedy Scene", open: async (page) => void (await page.goto("/scene")) },
  {
    name: "event",
    heading: /.+/,
    open: async (page, helpers) => void (await page.goto(`/event/${await firstSceneItemId(helpers)}`)),
  },
  { name: "not found", heading: /.+/, open: async (page) => void (await page.goto("/no-such-page")) },
  {
    name: "dashboard preview (signed out)",
    heading: /.+/,
    open: async (page) => void (await page.goto("/dashboard")),
  },
  {
    name: "dashboard",
    heading: /.+/,
    open: async (page, helpers) => {
      await helpers.signIn(page, DEMO_COMEDIAN);
      await page.goto("/dashboard");
    },
  },
  {
    name: "schedule",
    heading: /Your Schedule/,
    open: async (page, helpers) => {
      await helpers.signIn(page, DEMO_COMEDIAN);
      await page.goto("/schedule");
    },
  },
  {
    name: "onboarding welcome",
    heading: /.+/,
    open: async (page, helpers) => {
      await helpers.signUp(page);
      await page.goto("/onboarding/welcome");
    },
  },
  {
    name: "live list (host)",
    heading: /.+/,
    toasts: true,
    open: async (page, helpers) => void (await openTonightsList(page, helpers)),
  },
  {
    name: "room screen",
    heading: /.+/,
    toasts: true,
    open: async (page, helpers) =>
      void (await page.goto(`/event/${await openTonightsList(page, helpers)}/list/screen`)),
  },
  { name: "log a set", heading: "Where did you perform?", open: signedIn("/log-set") },
  { name: "history", heading: /.+/, open: signedIn("/performance-history") },
  { name: "badges", heading: "Badge Showcase", open: signedIn("/badges") },
  { name: "profile", heading: /.+/, open: signedIn("/profile") },
  {
    name: "bits",
    heading: "Bits",
    open: async (page, helpers) => {
      await withMaterial(page, helpers);
      await page.goto("/bits");
    },
  },
  {
    name: "bit page",
    heading: "Airport security",
    open: async (page, helpers) => {
      await withMaterial(page, helpers);
      await page.goto("/bits");
      await page.getByRole("link", { name: "Airport security" }).click();
    },
  },
  {
    name: "set list",
    heading: "Tonight's five",
    open: async (page, helpers) => void (await withMaterial(page, helpers)),
  },
  {
    name: "stage view",
    heading: /^Tonight's five/,
    open: async (page, helpers) => void (await page.goto(`${await withMaterial(page, helpers)}/stage`)),
  },
  {
    name: "admin",
    heading: "Admin Dashboard",
    open: async (page, helpers) => {
      await helpers.signIn(page, DEMO_ADMIN);
      await page.goto("/admin");
    },
  },
  {
    name: "admin (access denied)",
    heading: "Access Denied",
    open: async (page, helpers) => {
      await helpers.signIn(page, DEMO_COMEDIAN);
      await page.goto("/admin");
    },
  },
];
