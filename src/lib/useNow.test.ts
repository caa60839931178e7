import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { clockFor } from "./useNow";

describe("clockFor (useNow's shared clock)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-24T20:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  test("a fresh clock keeps the time its first render read when that render subscribes", () => {
    const clock = clockFor(1_000);
    const rendered = clock.getSnapshot();
    vi.advanceTimersByTime(5);
    const stop = clock.subscribe(() => undefined);
    // useSyncExternalStore re-renders synchronously when the snapshot moved between render and subscribe.
    expect(clock.getSnapshot()).toBe(rendered);
    stop();
  });

  test("ticks every interval for its subscribers, and moves on after standing still", () => {
    const clock = clockFor(2_000);
    const seen: number[] = [];
    const stop = clock.subscribe(() => seen.push(clock.getSnapshot()));
    vi.advanceTimersByTime(4_000);
    expect(seen).toEqual([Date.now() - 2_000, Date.now()]);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(seen).toHaveLength(2);
    const again = clock.subscribe(() => undefined);
    expect(clock.getSnapshot()).toBe(Date.now());
    again();
  });
});
