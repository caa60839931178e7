/**
 * The browser's offer to install the app (`beforeinstallprompt`, Chromium only), kept from the
 * moment the entry runs so a card shown later can still use it; iOS and Firefox never send one.
 */
type InstallEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: "accepted" | "dismissed" }> };

let offer: InstallEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

if (typeof window !== "undefined") {
  window.addEventListener("beforeinstallprompt", (event) => {
    // Ours to show when it helps (the dashboard's card), not the browser's mini bar on first load.
    event.preventDefault();
    offer = event as InstallEvent;
    changed();
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    changed();
  });
}

export function installAvailable(): boolean {
  return offer !== null;
}

export function subscribeInstall(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows the browser's install dialog; an offer is good for one prompt, whatever the answer. */
export async function promptInstall(): Promise<"accepted" | "dismissed"> {
  const event = offer;
  if (event === null) return "dismissed";
  offer = null;
  changed();
  await event.prompt();
  return (await event.userChoice).outcome;
}
