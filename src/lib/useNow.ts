import { useCallback, useSyncExternalStore } from "react";

type Ticker = { now: number; listeners: Set<() => void>; timer: ReturnType<typeof setInterval> | null };

/** One clock per interval, shared by every component that asks for it, so a
 * list of 200 cards ticks once rather than 200 times. */
const tickers = new Map<number, Ticker>();

function tickerFor(intervalMs: number): Ticker {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    ticker = { now: Date.now(), listeners: new Set(), timer: null };
    tickers.set(intervalMs, ticker);
  }
  return ticker;
}

/**
 * The current time in epoch ms, re-rendering the caller every `intervalMs`.
 * Queries never read the clock, so anything time-dependent on screen (the
 * check-in window, Verified expiry, freshness) is computed from this.
 */
export function useNow(intervalMs = 30_000): number {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const ticker = tickerFor(intervalMs);
      ticker.listeners.add(onChange);
      if (ticker.timer === null) {
        ticker.now = Date.now();
        ticker.timer = setInterval(() => {
          ticker.now = Date.now();
          for (const listener of ticker.listeners) listener();
        }, intervalMs);
      }
      return () => {
        ticker.listeners.delete(onChange);
        if (ticker.listeners.size === 0 && ticker.timer !== null) {
          clearInterval(ticker.timer);
          ticker.timer = null;
        }
      };
    },
    [intervalMs],
  );
  const getSnapshot = useCallback(() => tickerFor(intervalMs).now, [intervalMs]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
