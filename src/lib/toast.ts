import { toast } from "sonner";
import type { ToastSpec } from "./authErrors";

/** Shows a {@link ToastSpec} as a success or error toast. */
export function showToast(spec: ToastSpec, kind: "success" | "error" | "info" = "info"): void {
  const options = { description: spec.description, duration: spec.duration };
  if (kind === "success") toast.success(spec.title, options);
  else if (kind === "error") toast.error(spec.title, options);
  else toast(spec.title, options);
}
