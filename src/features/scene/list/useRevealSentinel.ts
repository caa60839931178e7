import { useEffect, useRef, useState } from "react";

/** How far below the viewport the sentinel starts revealing more, so cards are ready before the comedian gets there. */
const REVEAL_MARGIN = "0px 0px 600px 0px";

/**
 * A ref for an element placed after the list: `onVisible` runs when it comes
 * near the viewport. Each change of `revision` (what the list shows) starts a
 * fresh observer, whose first report says whether the sentinel is still in
 * view after the new cards laid out, so a tall screen fills up a step at a
 * time and never runs ahead of layout. Without IntersectionObserver nothing
 * happens and the 'Show more' button does the work.
 */
export function useRevealSentinel(onVisible: () => void, enabled: boolean, revision: unknown) {
  const [target, setTarget] = useState<Element | null>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });

  useEffect(() => {
    if (!enabled || !target || typeof IntersectionObserver === "undefined") return;
    let fired = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (fired || !entries.some((entry) => entry.isIntersecting)) return;
        fired = true;
        callback.current();
      },
      { rootMargin: REVEAL_MARGIN },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [target, enabled, revision]);

  return setTarget;
}
