import { describe, expect, test } from "vitest";
import { appPath, inQuietHours, extraPushHosts, isPushEndpoint, MAX_URL_LENGTH } from "./notificationRules";

const NY = "America/New_York";
const night = { start: "22:00", end: "08:00" };

describe("quiet hours on the comedian's wall clock", () => {
  test.each([
    // [instant, quiet, zone, inside]
    ["2026-11-25T21:59:00-05:00", night, NY, false],
    ["2026-11-25T22:00:00-05:00", night, NY, true],
    ["2026-11-26T03:00:00-05:00", night, NY, true],
    ["2026-11-26T07:59:00-05:00", night, NY, true],
    ["2026-11-26T08:00:00-05:00", night, NY, false],
    ["2026-11-25T13:00:00-05:00", { start: "12:00", end: "14:00" }, NY, true],
    ["2026-11-25T14:00:00-05:00", { start: "12:00", end: "14:00" }, NY, false],
    // The same instant is quiet in New York and not in Los Angeles (19:30 there).
    ["2026-11-25T22:30:00-05:00", night, "America/Los_Angeles", false],
    ["2026-11-25T22:30:00-05:00", null, NY, false],
    ["2026-11-25T22:30:00-05:00", { start: "22:00", end: "22:00" }, NY, false],
  ] as const)("%s with %o in %s: %s", (at, quiet, zone, inside) => {
    expect(inQuietHours(Date.parse(at), quiet, zone)).toBe(inside);
  });

  test("the window follows the clock across a DST change, not a fixed UTC offset", () => {
    // Spring forward (8 March 2026): 07:30 EDT is 11:30 UTC; in winter 07:30 was 12:30 UTC.
    expect(inQuietHours(Date.parse("2026-03-08T07:30:00-04:00"), night, NY)).toBe(true);
    expect(inQuietHours(Date.parse("2026-03-08T08:30:00-04:00"), night, NY)).toBe(false);
    // 12:30 UTC on the day before is 07:30 EST (quiet); the day after it is 08:30 EDT (not).
    expect(inQuietHours(Date.parse("2026-03-07T12:30:00Z"), night, NY)).toBe(true);
    expect(inQuietHours(Date.parse("2026-03-09T12:30:00Z"), night, NY)).toBe(false);
    // Fall back (1 November 2026): 01:30 happens twice and is quiet both times; 22:00 EST starts it.
    expect(inQuietHours(Date.parse("2026-11-01T01:30:00-04:00"), night, NY)).toBe(true);
    expect(inQuietHours(Date.parse("2026-11-01T01:30:00-05:00"), night, NY)).toBe(true);
    expect(inQuietHours(Date.parse("2026-11-01T21:59:00-05:00"), night, NY)).toBe(false);
    expect(inQuietHours(Date.parse("2026-11-01T22:00:00-05:00"), night, NY)).toBe(true);
  });
});

describe("push endpoints", () => {
  test.each([
    ["https://fcm.googleapis.com/fcm/send/abc", true],
    ["http://fcm.googleapis.com/fcm/send/abc", false],
    ["http://127.0.0.1:9999/push/1", false],
    ["javascript:alert(1)", false],
    ["not a url", false],
    [`https://fcm.googleapis.com/${"a".repeat(1000)}`, false],
    ["https://updates.push.services.mozilla.com/wpush/v2/abc", true],
    ["https://web.push.apple.com/QGx", true],
    ["https://db5p.notify.windows.com/w/?token=abc", true],
    // Anywhere else is the backend's own network or a stranger's server: refused.
    ["https://push.example.com/x", false],
    ["https://127.0.0.1:8443/x", false],
    ["https://169.254.169.254/latest/meta-data/", false],
    ["https://[::1]/x", false],
    ["https://localhost:3210/api/mutation", false],
    ["https://fcm.googleapis.com.attacker.example/x", false],
    ["https://fcm.googleapis.com:8443/x", false],
  ] as const)("%s: %s", (endpoint, ok) => {
    expect(isPushEndpoint(endpoint)).toBe(ok);
  });

  test("a host the deployment allows (PUSH_ENDPOINT_HOSTS) is accepted, on any port", () => {
    const extra = extraPushHosts(" 127.0.0.1 , Push.Test.Invalid ");
    expect(extra).toEqual(["127.0.0.1", "push.test.invalid"]);
    expect(isPushEndpoint("https://127.0.0.1:8443/x", extra)).toBe(true);
    expect(isPushEndpoint("https://push.test.invalid/x", extra)).toBe(true);
    expect(isPushEndpoint("http://127.0.0.1:8443/x", extra)).toBe(false);
    expect(isPushEndpoint("https://10.0.0.5/x", extra)).toBe(false);
    expect(extraPushHosts(undefined)).toEqual([]);
  });
});

describe("a notice's link", () => {
  test("stays a path of this app; anything a browser would read as another site becomes the home page", () => {
    for (const path of ["/", "/event/abc123", "/sets/x/bits?from=notice#top"]) expect(appPath(path)).toBe(path);
    for (const other of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "event/abc",
      "",
      `/${"a".repeat(MAX_URL_LENGTH)}`,
    ]) {
      expect(appPath(other), other).toBe("/");
      // What the browser makes of what is kept: this origin, always.
      expect(new URL(appPath(other), "https://stagetime.example").origin).toBe("https://stagetime.example");
    }
  });
});
