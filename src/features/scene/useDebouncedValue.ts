import { useEffect, useState } from "react";
import { debouncer } from "./incremental";

/**
 * `value` once it has stayed the same for `delayMs`: the scene searches the
 * server after a pause in typing, while the search box itself follows every
 * keystroke (it keeps its own value, so nothing typed is lost and focus stays).
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  const [pending] = useState(() => debouncer<T>(delayMs, setSettled));
  useEffect(() => {
    pending.push(value);
    return () => pending.cancel();
  }, [pending, value]);
  return settled;
}
