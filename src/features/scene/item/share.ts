import { toast } from "@/lib/toast";
import { paths } from "../../../lib/paths";
import type { SceneItem } from "./types";

/**
 * Shares the event page: the Web Share sheet where the browser has one (phones),
 * otherwise the link goes to the clipboard.
 */
export async function shareEvent(item: Pick<SceneItem, "_id" | "title" | "venueName" | "city">) {
  const url = new URL(paths.event(item._id), window.location.origin).href;
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: item.title, text: `${item.title} at ${item.venueName}, ${item.city}`, url });
      return;
    } catch (err) {
      // The comedian closed the share sheet: nothing to report.
      if (err instanceof DOMException && err.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success("Link copied");
  } catch {
    toast.error("Could not copy to clipboard");
  }
}
