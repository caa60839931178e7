import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { wasRefused } from "@/lib/offline/store";
import { useOutboxRead } from "@/lib/offline/useOutboxRead";

export type QueuedSetFate = { state: "waiting" } | { state: "logged"; totalMinutes: number } | { state: "refused" };

/**
 * What became of a set saved on this phone: still waiting, logged (the server has it under its
 * key, whichever tab sent it), or refused for good (the outbox marks it when it drops the set).
 */
export function useQueuedSetFate(clientKey: string | undefined): QueuedSetFate {
  const { isAuthenticated } = useConvexAuth();
  const logged = useQuery(
    api.performances.loggedWith,
    clientKey !== undefined && isAuthenticated ? { clientKey } : "skip",
  );
  const refused = useOutboxRead(clientKey ?? null, wasRefused, false);
  if (logged) return { state: "logged", totalMinutes: logged.totalMinutes };
  if (refused) return { state: "refused" };
  return { state: "waiting" };
}
