/**
 * The backend's limits come from its environment through knob() (knobs.ts): a positive
 * finite number, else the default. The segment size and the log size that starts a
 * compaction are read the same way: a bad value ("abc", negative, zero, empty) falls
 * back to the default instead of a one-document segment or a compaction after every commit.
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
  const { SEGMENT_DOCS } = await import("../../local-backend/src/segments");
  const { COMPACT_LOG_BYTES } = await import("../../local-backend/src/store");
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

  test.each(["abc", "-5", "0", "", "Infinity", "NaN"])("%j falls back to the defaults", async (value) => {
    expect(await limitsWith(value)).toEqual(DEFAULTS);
  });
});
