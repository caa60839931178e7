import { useLayoutEffect } from "react";
import { useLocation } from "@/lib/router";

/** Scrolls to the top whenever the path changes (spec: on every route change). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
