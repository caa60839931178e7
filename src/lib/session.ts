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

/** The page (its history entry's key) a sign-out started on, until the next one. */
let signingOutFrom: string | null = null;

/** True on the page a sign-out started from: the session gates render nothing there, so they
 * do not send it to /auth while the sign-out takes the comedian home. Any navigation ends it. */
export function isSigningOut(locationKey: string): boolean {
  return signingOutFrom === locationKey;
}

export function setSigningOut(locationKey: string): void {
  signingOutFrom = locationKey;
}

/** Deletes the offline copy and outbox (IndexedDB); open connections close themselves for it. */
function forgetOfflineCopy(): void {
  try {
    globalThis.indexedDB?.deleteDatabase(OFFLINE_DB_NAME);
  } catch {
    // No IndexedDB here (private mode, tests): nothing was kept.
  }
}
