import { useEffect, useState } from "react";
import { debouncer } from "./listPaging";

/**
 * `value` once it has stayed the same for `delayMs`: the scene searches the
 * server after a pause in typing, while the search box itself follows every
 * keystroke (it keeps its own value, so nothing typed is lost and focus stays).
 * Values for which `isImmediate` holds (a cleared search) settle at once, so
 * typing again right after clearing never brings back the old value.
 */
export function useDebouncedValue<T>(value: T, delayMs: number, isImmediate: (value: T) => boolean = () => false): T {
  const [settled, setSettled] = useState(value);
  const [pending] = useState(() => debouncer<T>(delayMs, setSettled));
  const immediate = isImmediate(value);
  // React's "adjust state while rendering" pattern: no render shows the old value.
  if (immediate && !Object.is(settled, value)) setSettled(value);
  useEffect(() => {
    if (immediate) {
      pending.cancel();
      return;
    }
    pending.push(value);
    return () => pending.cancel();
  }, [pending, value, immediate]);
  return immediate ? value : settled;
}
