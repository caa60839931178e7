/** Scroll position under which the top bar always shows (spec: 10 px). */
export const SHOW_NEAR_TOP_PX = 10;

export type BarState = { hidden: boolean; lastY: number };

export const initialBarState: BarState = { hidden: false, lastY: 0 };

/**
 * Next state of the hide-on-scroll top bar for a new vertical scroll position:
 * near the top it shows; scrolling down past 10 px hides it; any scroll up shows it.
 */
export function nextBarState(state: BarState, y: number): BarState {
  const top = Math.max(0, y);
  if (top <= SHOW_NEAR_TOP_PX) return { hidden: false, lastY: top };
  if (top > state.lastY) return { hidden: true, lastY: top };
  if (top < state.lastY) return { hidden: false, lastY: top };
  return state;
}
