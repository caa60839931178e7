import { toast } from "sonner";
import type { ToastSpec } from "./authErrors";

/** Shows a {@link ToastSpec} as a success or error toast. */
export function showToast(spec: ToastSpec, kind: "success" | "error" | "info" = "info", id?: string): void {
  // An id makes a repeated toast (e.g. from a re-run effect) replace itself.
  const options = { description: spec.description, duration: spec.duration, id };
  if (kind === "success") toast.success(spec.title, options);
  else if (kind === "error") toast.error(spec.title, options);
  else toast(spec.title, options);
}
