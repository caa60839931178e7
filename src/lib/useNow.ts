import { useSyncExternalStore } from "react";

type Clock = {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
  subscribe: (onChange: () => void) => () => void;
  getSnapshot: () => number;
};

/** One clock per interval, shared by every component that asks for it, so a
 * list of 200 cards ticks once rather than 200 times. */
const clocks = new Map<number, Clock>();

/** The shared clock ticking every `intervalMs` (a store for useSyncExternalStore). */
export function clockFor(intervalMs: number): Clock {
  const existing = clocks.get(intervalMs);
  if (existing) return existing;
  const clock: Clock = {
    now: Date.now(),
    listeners: new Set(),
    timer: null,
    subscribe: (onChange) => {
      clock.listeners.add(onChange);
      if (clock.timer === null) {
        // A clock that stood still longer than its interval moves on now. A fresh one
        // (made by the render that is subscribing) keeps its time: moving it would
        // make every caller render again, synchronously, right after mounting.
        if (Date.now() - clock.now >= intervalMs) clock.now = Date.now();
        clock.timer = setInterval(() => {
          clock.now = Date.now();
          for (const listener of clock.listeners) listener();
        }, intervalMs);
      }
      return () => {
        clock.listeners.delete(onChange);
        if (clock.listeners.size === 0 && clock.timer !== null) {
          clearInterval(clock.timer);
          clock.timer = null;
        }
      };
    },
    getSnapshot: () => clock.now,
  };
  clocks.set(intervalMs, clock);
  return clock;
}

/**
 * The current time in epoch ms, re-rendering the caller every `intervalMs`.
 * Queries never read the clock, so anything time-dependent on screen (the
 * check-in window, Verified expiry, freshness) is computed from this.
 */
export function useNow(intervalMs = 30_000): number {
  const clock = clockFor(intervalMs);
  return useSyncExternalStore(clock.subscribe, clock.getSnapshot, clock.getSnapshot);
}
