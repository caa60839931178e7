import { useEffect, useState } from "react";
import { onOutboxChange } from "./store";

/**
 * `read(key)` from the device's offline store, read again whenever any tab changes the outbox;
 * `fallback` while `key` is null and until the answer for this key is in.
 */
export function useOutboxRead<T>(key: string | null, read: (key: string) => Promise<T>, fallback: T): T {
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    const load = () =>
      void read(key).then(
        (value) => live && setAnswer({ key, value }),
        () => undefined,
      );
    load();
    const stop = onOutboxChange(load);
    return () => {
      live = false;
      stop();
    };
  }, [key, read]);
  return answer !== null && answer.key === key ? answer.value : fallback;
}
