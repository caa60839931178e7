import { useSyncExternalStore } from "react";

/** Every store made here, so a sign-out can forget all of them at once. */
const stores = new Set<{ forget: () => void }>();

/**
 * A tiny store kept in sessionStorage, so a reload in the middle of a wizard
 * keeps what was chosen, and a new tab starts fresh.
 */
export function createSessionStore<T extends object>(key: string, initial: T) {
  let state: T = read();
  const listeners = new Set<() => void>();

  function read(): T {
    try {
      const raw = sessionStorage.getItem(key);
      return raw ? { ...initial, ...(JSON.parse(raw) as Partial<T>) } : initial;
    } catch {
      return initial;
    }
  }

  function notify() {
    for (const listener of listeners) listener();
  }

  function set(next: T) {
    state = next;
    try {
      sessionStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the wizard still works within this page.
    }
    notify();
  }

  stores.add({
    forget: () => {
      state = initial;
      try {
        sessionStorage.removeItem(key);
      } catch {
        // Blocked storage holds nothing of ours.
      }
      notify();
    },
  });

  return {
    get: () => state,
    update: (patch: Partial<T> | ((s: T) => Partial<T>)) => {
      set({ ...state, ...(typeof patch === "function" ? patch(state) : patch) });
    },
    reset: () => set(initial),
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Forgets what every session store holds, in memory and in sessionStorage: the
 * drafts belong to the comedian who was signed in, not to the next one on this device.
 */
export function forgetSessionStores(): void {
  for (const store of stores) store.forget();
}

export type SessionStore<T extends object> = ReturnType<typeof createSessionStore<T>>;

export function useSessionStore<T extends object>(store: SessionStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
