/**
 * The backend's limits come from its environment through knob() (knobs.ts): a positive
 * finite number, else the default. The segment size and the log size that starts a
 * compaction are read the same way: a bad value ("abc", negative, zero, empty) falls
 * back to the default instead of a one-document segment or a compaction after every commit.
 * Counts and byte sizes (those two, the body budget, the connection caps) read through
 * intKnob(): an integer of at least 1 written in digits, so a fraction falls back too.
 */
import { afterEach, describe, expect, test, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** SEGMENT_DOCS and COMPACT_LOG_BYTES as a backend started with `value` in both variables reads them. */
async function limitsWith(value: string | undefined) {
  vi.resetModules();
  vi.stubEnv("LOCAL_BACKEND_SEGMENT_DOCS", value);
  vi.stubEnv("LOCAL_BACKEND_COMPACT_LOG_BYTES", value);
  const { SEGMENT_DOCS } = await import("../../local-backend/src/storage/segments");
  const { COMPACT_LOG_BYTES } = await import("../../local-backend/src/storage/store");
  return { SEGMENT_DOCS, COMPACT_LOG_BYTES };
}

const DEFAULTS = { SEGMENT_DOCS: 16_384, COMPACT_LOG_BYTES: 8 * 1024 * 1024 };

describe("storage knobs", () => {
  test("unset: the defaults", async () => {
    expect(await limitsWith(undefined)).toEqual(DEFAULTS);
  });

  test("a positive number is used as given", async () => {
    expect(await limitsWith("2000")).toEqual({ SEGMENT_DOCS: 2000, COMPACT_LOG_BYTES: 2000 });
  });

  test.each(["abc", "-5", "0", "", "Infinity", "NaN", "0.5", "0.001", "1.5", "2000.5", "1e3", "+5", "0x10", "1 000"])(
    "%j falls back to the defaults",
    async (value) => {
      expect(await limitsWith(value)).toEqual(DEFAULTS);
    },
  );
});

describe("count and byte knobs of the HTTP listeners", () => {
  const NAMES = [
    "LOCAL_BACKEND_BODY_BUDGET_BYTES",
    "LOCAL_BACKEND_MAX_CONNECTIONS",
    "LOCAL_BACKEND_MAX_SITE_CONNECTIONS",
  ] as const;

  /** The body budget and connection caps as a backend started with `value` in all three reads them. */
  async function httpLimitsWith(value: string | undefined) {
    vi.resetModules();
    for (const name of NAMES) vi.stubEnv(name, value);
    const { bodyBudget, serverLimits } = await import("../../local-backend/src/http/httpCommon");
    return [bodyBudget.limit, serverLimits.maxConnections, serverLimits.maxSiteConnections];
  }

  const HTTP_DEFAULTS = [96 * 1024 * 1024, 20_000, 1000];

  test("an integer is used as given (spaces around it allowed)", async () => {
    expect(await httpLimitsWith("7")).toEqual([7, 7, 7]);
    expect(await httpLimitsWith(" 4096 ")).toEqual([4096, 4096, 4096]);
  });

  test.each(["0.5", "0.001", "3.7", "1e3", "-1", "0", "abc"])("%j falls back to the defaults", async (value) => {
    expect(await httpLimitsWith(value)).toEqual(HTTP_DEFAULTS);
  });
});

describe("settings where 0 means something (intKnob with min 0)", () => {
  test("action worker threads: 0 (run actions on the main thread) and whole numbers as given, anything else one per CPU", async () => {
    const { actionWorkerCount } = await import("../../local-backend/src/runtime/actions/actionPool");
    const perCpu = actionWorkerCount();
    for (const [value, expected] of [
      ["0", 0],
      ["3", 3],
      ["1e3", perCpu],
      ["0x10", perCpu],
      ["2.5", perCpu],
      ["-1", perCpu],
      ["abc", perCpu],
    ] as const) {
      vi.stubEnv("LOCAL_BACKEND_ACTION_WORKERS", value);
      expect(actionWorkerCount(), value).toBe(expected);
    }
  });

  test("the contention threshold: 0 (off) and whole numbers as given, anything else the default", async () => {
    const { contentionThreshold, DEFAULT_CONTENTION_THRESHOLD } =
      await import("../../local-backend/src/database/contention");
    for (const [value, expected] of [
      ["0", 0],
      ["25", 25],
      ["0.5", DEFAULT_CONTENTION_THRESHOLD],
      ["abc", DEFAULT_CONTENTION_THRESHOLD],
      ["1e3", DEFAULT_CONTENTION_THRESHOLD],
    ] as const) {
      vi.stubEnv("LOCAL_BACKEND_CONTENTION_THRESHOLD", value);
      expect(contentionThreshold(), value).toBe(expected);
    }
  });
});
