import type { ExternalToast, ToasterProps } from "sonner";
import type { ToastSpec } from "./authErrors";

type Sonner = typeof import("sonner");
type Message = Parameters<Sonner["toast"]>[0];
type Kind = "success" | "error" | "info" | "warning" | "loading";

/**
 * sonner (the toasts and their Toaster) is not part of a page's first paint: it
 * loads on the first toast, or once the page is idle (see `DeferredToaster`).
 */
let loaded: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
let markReady: (sonner: Sonner) => void = () => {};
const ready = new Promise<Sonner>((resolve) => (markReady = resolve));

export function loadToasts(): Promise<Sonner> {
  loading ??= import("sonner").then((sonner) => {
    loaded = sonner;
    markReady(sonner);
    return sonner;
  });
  return loading;
}

/** Resolves with sonner once something has loaded it (without loading it itself). */
export const toastsLoaded = (): Promise<Sonner> => ready;

let unnamed = 0;

function show(kind: Kind | null, message: Message, data?: ExternalToast): string | number {
  const fire = (sonner: Sonner, options?: ExternalToast) =>
    kind === null ? sonner.toast(message, options) : sonner.toast[kind](message, options);
  if (loaded) return fire(loaded, data);
  // Not loaded yet: name the toast now, so a later update by id (a loading toast
  // turned into a success) finds it. Calls run in order once sonner is in.
  const id = data?.id ?? `toast-${++unnamed}`;
  void loadToasts().then((sonner) => fire(sonner, { ...data, id }));
  return id;
}

/** sonner's `toast` (message, success, error, info, warning, loading, dismiss), loading sonner on first use. */
export const toast = Object.assign((message: Message, data?: ExternalToast) => show(null, message, data), {
  success: (message: Message, data?: ExternalToast) => show("success", message, data),
  error: (message: Message, data?: ExternalToast) => show("error", message, data),
  info: (message: Message, data?: ExternalToast) => show("info", message, data),
  warning: (message: Message, data?: ExternalToast) => show("warning", message, data),
  loading: (message: Message, data?: ExternalToast) => show("loading", message, data),
  dismiss: (id?: string | number) => {
    if (loaded) return loaded.toast.dismiss(id);
    void loadToasts().then((sonner) => sonner.toast.dismiss(id));
    return id;
  },
});

export type { ToasterProps };

/** Shows a {@link ToastSpec} as a success or error toast. */
export function showToast(spec: ToastSpec, kind: "success" | "error" | "info" = "info", id?: string): void {
  // An id makes a repeated toast (e.g. from a re-run effect) replace itself.
  const options = { description: spec.description, duration: spec.duration, id };
  if (kind === "success") toast.success(spec.title, options);
  else if (kind === "error") toast.error(spec.title, options);
  else toast(spec.title, options);
}
