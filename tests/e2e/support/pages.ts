import type { Page } from "@playwright/test";
import { DEMO_COMEDIAN } from "../fixtures";

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
    name: "admin (access denied)",
    heading: "Access Denied",
    open: async (page, helpers) => {
      await helpers.signIn(page, DEMO_COMEDIAN);
      await page.goto("/admin");
    },
  },
];
