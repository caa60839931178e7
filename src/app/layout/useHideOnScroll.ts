import { useEffect, useReducer } from "react";
import { initialBarState, nextBarState } from "./scrollHide";

/** Whether the top bar should be hidden for the window's current scroll. */
export function useHideOnScroll(): boolean {
  const [state, dispatch] = useReducer(nextBarState, initialBarState);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => dispatch(window.scrollY));
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
    };
  }, []);
  return state.hidden;
}
