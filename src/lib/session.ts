import { OFFLINE_DB_NAME } from "./offline/dbName";
import { forgetSessionStores } from "./sessionStore";

/** Keys the app keeps in localStorage; all are cleared on sign-out. */
export const storageKeys = {
  /** Answers given so far in the onboarding wizard. */
  onboardingProgress: "onboarding_progress",
  /** The last device location and when it was read (reused for an hour). */
  userLocation: "userLocation",
} as const;

/** Prefixes of the keys @convex-dev/auth stores its tokens under (namespaced by deployment). */
const AUTH_TOKEN_PREFIXES = ["__convexAuthJWT", "__convexAuthRefreshToken"];

/**
 * Clears this browser's session state before the backend is told about a sign-out,
 * so a closed tab or a failed request still leaves nobody signed in here.
 * The auth provider keeps its in-memory token until signOut() resolves.
 */
export function clearLocalSessionState(
  storage: Storage | undefined = globalThis.localStorage,
  session: Storage | undefined = globalThis.sessionStorage,
): void {
  forgetWizardDrafts(session);
  forgetOfflineCopy();
  if (!storage) return;
  const doomed: string[] = [storageKeys.onboardingProgress, storageKeys.userLocation];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key && AUTH_TOKEN_PREFIXES.some((prefix) => key.startsWith(prefix))) doomed.push(key);
  }
  for (const key of doomed) storage.removeItem(key);
}

/**
 * Forgets the wizards' drafts (stagetime.logSet, stagetime.addEvent): the copies
 * the open page holds in memory and those in sessionStorage. They belong to the
 * comedian who made them, so a sign-out or a sign-in as someone else drops them.
 */
export function forgetWizardDrafts(session: Storage | undefined = globalThis.sessionStorage): void {
  forgetSessionStores();
  if (!session) return;
  const wizardKeys: string[] = [];
  for (let i = 0; i < session.length; i++) {
    const key = session.key(i);
    if (key?.startsWith("stagetime.")) wizardKeys.push(key);
  }
  for (const key of wizardKeys) session.removeItem(key);
}

let signingOut = false;

/** True between the start of a sign-out and the navigation home that ends it. The
 * session gates render nothing meanwhile, so they do not send the page to /auth
 * while the sign-out is taking the comedian to /. */
export function isSigningOut(): boolean {
  return signingOut;
}

export function setSigningOut(value: boolean): void {
  signingOut = value;
}

/** Deletes the offline copy and outbox (IndexedDB); open connections close themselves for it. */
function forgetOfflineCopy(): void {
  try {
    globalThis.indexedDB?.deleteDatabase(OFFLINE_DB_NAME);
  } catch {
    // No IndexedDB here (private mode, tests): nothing was kept.
  }
}
