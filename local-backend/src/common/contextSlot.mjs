/**
 * A drop-in for AsyncLocalStorage (run, getStore, exit) whose slots all live in one
 * AsyncLocalStorage. Node 20 copies every enabled AsyncLocalStorage's store onto every promise
 * it creates, so each extra instance costs on every await of every function; the backend and
 * convex-test together had fourteen. Here a context is one array holding each slot's value.
 *
 * Plain JavaScript: the action worker threads (actionWorker.mjs) load functionRandom.mjs,
 * which uses it, without tsx.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const frames = new AsyncLocalStorage();
let slots = 0;

export class ContextSlot {
  #index = slots++;

  /** The value the innermost `run` of this slot gave, or undefined. */
  getStore() {
    return frames.getStore()?.[this.#index];
  }

  /** Calls `callback` (and the async work it starts) with this slot set to `store`; other slots keep theirs. */
  run(store, callback, ...args) {
    const frame = frames.getStore();
    const next = frame === undefined ? [] : frame.slice();
    next[this.#index] = store;
    return frames.run(next, callback, ...args);
  }

  /** Calls `callback` with this slot unset; other slots keep theirs. */
  exit(callback, ...args) {
    const frame = frames.getStore();
    if (frame?.[this.#index] === undefined) return callback(...args);
    const next = frame.slice();
    next[this.#index] = undefined;
    return frames.run(next, callback, ...args);
  }
}
