import { test as base, expect, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_EMAIL, DEMO_PASSWORD } from "../../convex-dev/model/seedData";
import webpush from "web-push";
import {
  envRemove,
  envSet,
  isAlive,
  killGroup,
  runFunction as runCli,
  startBackend,
  stopBackend,
  waitForExit,
} from "./support/backend";
import { queueGoogleIdentity, type GoogleIdentity } from "./support/google-mock";
import { readState, updateState } from "./support/state";
import { startPushService, type Received } from "./support/webPush";

export { expect };

/** Email + password (+ display name) of an account the tests use. */
export type Credentials = { email: string; password: string; name: string };

/** The seeded demo comedian (has a few weeks of history, onboarding done), as the seed and the README have it. */
export const DEMO_COMEDIAN = { email: DEMO_EMAIL, password: DEMO_PASSWORD } as const;
/** The seeded demo admin. */
export const DEMO_ADMIN = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } as const;

/** A fresh, never-used email address, so tests never collide on the shared backend. */
export function uniqueEmail(prefix = "comic"): string {
  return `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}@example.com`;
}

/** Controls over the running local backend process, for fault tests. */
export type BackendControls = {
  /** Convex API origin (VITE_CONVEX_URL of the built app). */
  url: string;
  /** HTTP actions origin. */
  siteUrl: string;
  dataDir: string;
  /** kill -9 the backend (no chance to flush or say goodbye) and wait until it is gone. */
  kill9: () => Promise<void>;
  /** Start the backend again on the same ports and data dir (stops it first if it runs). */
  restart: () => Promise<void>;
  /** True while the backend process exists. */
  isRunning: () => boolean;
};

type Fixtures = {
  /** Origin of the app under test, e.g. http://127.0.0.1:41234 (also Playwright's baseURL). */
  appUrl: string;
  /**
   * Creates an account through the real /auth form (Create Account) with a unique email
   * unless one is given, and waits until the app has left /auth (a new user lands on
   * /onboarding/welcome). Returns the credentials used.
   */
  signUp: (page: Page, opts?: Partial<Credentials> & { waitForApp?: boolean }) => Promise<Credentials>;
  /**
   * Signs in through the real /auth form (Sign In). By default waits until the app has left
   * /auth; pass `{ waitForApp: false }` to assert a failure yourself.
   */
  signIn: (page: Page, creds: { email: string; password: string }, opts?: { waitForApp?: boolean }) => Promise<void>;
  /** Signs in as the seeded demo admin (DEMO_ADMIN) and waits for the app. */
  signInAsAdmin: (page: Page) => Promise<void>;
  /**
   * Runs any Convex function, internal ones included, through the backend CLI `run`
   * (like `npx convex run`) and returns its JSON result.
   */
  runFunction: <T = unknown>(name: string, args?: Record<string, unknown>) => Promise<T>;
  /** The backend process; a test that leaves it stopped gets it restarted afterwards. */
  backend: BackendControls;
  /** The mock Google issuer: choose which Google account the next Google sign-in uses. */
  google: { issuer: string; nextIdentity: (identity: GoogleIdentity) => Promise<void> };
  /**
   * A push service on this machine, with fresh VAPID keys set in the backend for this test
   * only (removed in teardown, even after a timeout: the other journeys run without push).
   */
  pushService: { url: string; received: Received[]; vapidPublicKey: string };
};

const VAPID_NAMES = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"] as const;

/** Opens /auth and selects the Create Account or Sign In mode of its toggle. */
async function openAuthForm(page: Page, mode: "Create Account" | "Sign In"): Promise<void> {
  await page.goto("/auth");
  const toggle = page
    .getByRole("tab", { name: mode, exact: true })
    .or(page.getByRole("radio", { name: mode, exact: true }));
  await expect(toggle.first()).toBeVisible();
  await toggle.first().click();
}

/** The email/password form on /auth (the one with a password field). */
function authForm(page: Page) {
  return page.locator("form").filter({ has: page.getByLabel("Password", { exact: true }) });
}

async function waitForApp(page: Page): Promise<void> {
  await expect(page).not.toHaveURL(/\/auth(\?|$|#)/, { timeout: 20_000 });
}

export const test = base.extend<Fixtures>({
  // The app's port is chosen by the global setup, after this config was first loaded.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(readState().appUrl);
  },

  // eslint-disable-next-line no-empty-pattern
  appUrl: async ({}, use) => {
    await use(readState().appUrl);
  },

  // eslint-disable-next-line no-empty-pattern
  signUp: async ({}, use) => {
    await use(async (page, opts = {}) => {
      const creds: Credentials = {
        email: opts.email ?? uniqueEmail(),
        password: opts.password ?? `pw-${randomUUID().slice(0, 10)}`,
        name: opts.name ?? "Casey Comic",
      };
      await openAuthForm(page, "Create Account");
      const form = authForm(page);
      const nameField = form.getByLabel(/name/i);
      if ((await nameField.count()) > 0) await nameField.first().fill(creds.name);
      await form.getByLabel("Email", { exact: true }).fill(creds.email);
      await form.getByLabel("Password", { exact: true }).fill(creds.password);
      await form.getByRole("button", { name: "Create Account", exact: true }).click();
      if (opts.waitForApp !== false) await waitForApp(page);
      return creds;
    });
  },

  // eslint-disable-next-line no-empty-pattern
  signIn: async ({}, use) => {
    await use(async (page, creds, opts = {}) => {
      await openAuthForm(page, "Sign In");
      const form = authForm(page);
      await form.getByLabel("Email", { exact: true }).fill(creds.email);
      await form.getByLabel("Password", { exact: true }).fill(creds.password);
      await form.getByRole("button", { name: "Sign In", exact: true }).click();
      if (opts.waitForApp !== false) await waitForApp(page);
    });
  },

  signInAsAdmin: async ({ signIn }, use) => {
    await use(async (page) => {
      await signIn(page, DEMO_ADMIN);
    });
  },

  // eslint-disable-next-line no-empty-pattern
  runFunction: async ({}, use) => {
    await use(async <T>(name: string, args: Record<string, unknown> = {}) => {
      const state = readState();
      return (await runCli(state.dataDir, state.backendPort, name, args)) as T;
    });
  },

  // eslint-disable-next-line no-empty-pattern
  backend: async ({}, use) => {
    const initial = readState();
    const restart = async () => {
      const state = readState();
      if (isAlive(state.backendPid)) await stopBackend(state.backendPid);
      const pid = await startBackend({
        port: state.backendPort,
        sitePort: state.sitePort,
        dataDir: state.dataDir,
        siteUrl: state.appUrl,
        logFile: state.backendLog,
        extraCaCerts: state.pushTls.cert,
      });
      updateState({ backendPid: pid });
    };
    const controls: BackendControls = {
      url: initial.backendUrl,
      siteUrl: initial.siteUrl,
      dataDir: initial.dataDir,
      kill9: async () => {
        const { backendPid } = readState();
        killGroup(backendPid, "SIGKILL");
        await waitForExit(backendPid, 10_000);
      },
      restart,
      isRunning: () => isAlive(readState().backendPid),
    };
    await use(controls);
    // Leave a running backend for the next test.
    if (!controls.isRunning()) await restart();
  },

  // eslint-disable-next-line no-empty-pattern
  google: async ({}, use) => {
    const { googleIssuer } = readState();
    await use({ issuer: googleIssuer, nextIdentity: (identity) => queueGoogleIdentity(googleIssuer, identity) });
  },

  // eslint-disable-next-line no-empty-pattern
  pushService: async ({}, use) => {
    const state = readState();
    const service = await startPushService(state.pushTls);
    const vapid = webpush.generateVAPIDKeys();
    const values = [vapid.publicKey, vapid.privateKey, "mailto:ops@stagetime.example"];
    try {
      for (const [i, name] of VAPID_NAMES.entries()) await envSet(state.dataDir, name, values[i]);
      await use({ url: service.url, received: service.received, vapidPublicKey: vapid.publicKey });
    } finally {
      for (const name of VAPID_NAMES) await envRemove(state.dataDir, name);
      await service.close();
    }
  },
});
