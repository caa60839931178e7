import { describe, expect, test } from "vitest";
import { clearLocalSessionState, forgetWizardDrafts, storageKeys } from "./session";

/** A minimal in-memory Storage. */
function memoryStorage(entries: Record<string, string>): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    key: (i) => Array.from(map.keys())[i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    clear: () => map.clear(),
  };
}

describe("clearLocalSessionState", () => {
  test("removes the app's keys and the auth tokens, keeps the rest", () => {
    const storage = memoryStorage({
      [storageKeys.onboardingProgress]: "{}",
      [storageKeys.userLocation]: "{}",
      __convexAuthJWT_http12700013210: "jwt",
      __convexAuthRefreshToken_http12700013210: "refresh",
      unrelated: "keep me",
    });
    clearLocalSessionState(storage, undefined);
    expect(storage.length).toBe(1);
    expect(storage.getItem("unrelated")).toBe("keep me");
  });

  test("removes the wizards' session selections, keeps other session keys", () => {
    const local = memoryStorage({});
    const session = memoryStorage({
      "stagetime.logSet": '{"venue":{}}',
      "stagetime.addEvent": "{}",
      other: "keep me",
    });
    clearLocalSessionState(local, session);
    expect(session.getItem("stagetime.logSet")).toBeNull();
    expect(session.getItem("stagetime.addEvent")).toBeNull();
    expect(session.getItem("other")).toBe("keep me");
  });

  test("tolerates a missing storage", () => {
    expect(() => clearLocalSessionState(undefined, undefined)).not.toThrow();
  });
});

describe("wizard drafts on sign-out and sign-in", () => {
  test("clearing the session state empties the wizard stores the open page holds in memory", async () => {
    const { createSessionStore } = await import("./sessionStore");
    const store = createSessionStore("stagetime.test", { venue: null as string | null });
    let notified = 0;
    store.subscribe(() => notified++);
    store.update({ venue: "The Comedy Cellar" });
    notified = 0;
    clearLocalSessionState(memoryStorage({}), memoryStorage({}));
    expect(store.get()).toEqual({ venue: null });
    // The wizard on screen re-renders without the draft.
    expect(notified).toBe(1);
  });

  test("the log-a-set and add-event drafts are gone after a sign-out", async () => {
    const { logSetStore } = await import("@/features/log-set/wizardStore");
    const { addEventStore } = await import("@/features/add-event/wizardStore");
    const venue = { name: "The Comedy Cellar", address: "117 MacDougal St", city: "New York" };
    logSetStore.update({ venue: venue as never, result: { totalMinutes: 5, minutes: 5, venueName: venue.name } });
    addEventStore.update({ venue: venue as never });
    clearLocalSessionState(memoryStorage({}), memoryStorage({}));
    expect(logSetStore.get()).toEqual({ venue: null, event: null, set: null, result: null });
    expect(addEventStore.get()).toEqual({ venue: null, saved: null });
  });

  test("forgetWizardDrafts (a sign-in as someone else) empties them too, and leaves the auth tokens", async () => {
    const { createSessionStore } = await import("./sessionStore");
    const store = createSessionStore("stagetime.other", { step: 0 });
    store.update({ step: 3 });
    const session = memoryStorage({ "stagetime.other": '{"step":3}', unrelated: "keep me" });
    forgetWizardDrafts(session);
    expect(store.get()).toEqual({ step: 0 });
    expect(session.getItem("stagetime.other")).toBeNull();
    expect(session.getItem("unrelated")).toBe("keep me");
  });
});
