/** AsyncLocalStorage's run, getStore and exit, over one AsyncLocalStorage shared by every slot. */
export class ContextSlot<T> {
  getStore(): T | undefined;
  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R;
  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R;
}
