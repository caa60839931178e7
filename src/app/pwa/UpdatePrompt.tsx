import { useEffect } from "react";
import { useRegisterSW } from "virtual:pwa-register/react";
import { toast } from "@/lib/toast";

const UPDATE_TOAST_ID = "app-update";

/**
 * Asks the waiting worker to take over and reloads once it controls the page. The reload is
 * ours: workbox-window reloads only for a worker it installed itself, not for one the browser
 * found on its own update check.
 */
async function takeOver(skipWaiting: () => Promise<void>): Promise<void> {
  navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  await skipWaiting();
}

/**
 * Registers the service worker and, when a new build is waiting, asks before switching to
 * it ("A new version is ready — Reload") instead of serving an old build without a word.
 */
export default function UpdatePrompt() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // The reload after "Reload" is takeOver's, so there is one.
    onNeedReload: () => {},
    onRegisterError: (error: unknown) => console.warn("Service worker not registered", error),
  });
  useEffect(() => {
    if (!needRefresh) return;
    toast.info("A new version is ready", {
      id: UPDATE_TOAST_ID,
      duration: Infinity,
      action: { label: "Reload", onClick: () => void takeOver(updateServiceWorker) },
    });
  }, [needRefresh, updateServiceWorker]);
  return null;
}
