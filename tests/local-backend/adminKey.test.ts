import { describe, expect, test } from "vitest";
import { isAdminKey } from "../../local-backend/src/auth/auth";

describe("isAdminKey: the one comparison for an admin key from the WebSocket or the HTTP API", () => {
  const key = "local-admin|0123456789abcdef0123456789abcdef";

  test("accepts exactly the deployment's key", () => {
    expect(isAdminKey(key, key)).toBe(true);
  });

  test("refuses a key of the same length that differs in one character, a prefix, a longer key and nothing", () => {
    expect(isAdminKey(key, key.slice(0, -1) + "0")).toBe(false);
    expect(isAdminKey(key, key.slice(0, 10))).toBe(false);
    expect(isAdminKey(key, key + "0")).toBe(false);
    expect(isAdminKey(key, "")).toBe(false);
  });

  test("compares bytes, not UTF-16 units: a key with a multi-byte character of another length is refused", () => {
    expect(isAdminKey(key, key.slice(0, -2) + "é")).toBe(false);
  });
});
