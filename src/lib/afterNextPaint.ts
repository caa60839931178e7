import { useEffect, useState } from "react";

/**
 * Calls `callback` once the browser has painted the current frame (the next
 * animation frame, then a task after it), so work that can wait does not hold
 * back the paint of what was just rendered. Returns a cancel function.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** False until the component's first render has been painted (see {@link afterNextPaint}). */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);
  return painted;
}
