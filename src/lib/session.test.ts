import { describe, expect, test } from "vitest";
import { clearLocalSessionState, storageKeys } from "./session";

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
