import { ConvexError } from "convex/values";
import type { QueuedSet } from "@/lib/offline/store";

/** How long the outbox waits before trying again after a refusal that passes (rate limit, sign-in). */
export const OUTBOX_RETRY_MS = 30_000;
const MAX_RETRY_MS = 10 * 60_000;

export type FlushResult = { kind: "done" } | { kind: "retry"; afterMs: number };

/**
 * Sends the queued sets oldest first. A set the server refuses for good is dropped with a toast
 * (and marked refused); a transient refusal (not reachable, not signed in yet, rate limited) stops
 * the flush and asks for another try after a wait, so a set never stays "Waiting to sync" while
 * the connection is up.
 */
export async function flushOutbox(
  entries: QueuedSet[],
  send: (entry: QueuedSet) => Promise<unknown>,
  remove: (entry: QueuedSet, outcome: "sent" | "refused") => Promise<void>,
  refused: (entry: QueuedSet, message: string | undefined) => void,
  cancelled: () => boolean = () => false,
): Promise<FlushResult> {
  for (const entry of entries) {
    if (cancelled()) return { kind: "done" };
    let outcome: "sent" | "refused" = "sent";
    try {
      await send(entry);
    } catch (error) {
      if (!(error instanceof ConvexError)) return { kind: "retry", afterMs: OUTBOX_RETRY_MS };
      const data = error.data as { code?: string; message?: string; retryAfterMs?: number } | undefined;
      if (data?.code === "RATE_LIMITED") {
        const wait = Number.isFinite(data.retryAfterMs) ? Number(data.retryAfterMs) : OUTBOX_RETRY_MS;
        return { kind: "retry", afterMs: Math.min(MAX_RETRY_MS, Math.max(1000, wait)) };
      }
      if (data?.code === "NOT_SIGNED_IN") return { kind: "retry", afterMs: OUTBOX_RETRY_MS };
      refused(entry, data?.message);
      outcome = "refused";
    }
    await remove(entry, outcome);
  }
  return { kind: "done" };
}
