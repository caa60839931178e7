import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { onOutboxChange, wasRefused } from "@/lib/offline/store";

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
  const refused = useRefusalMark(clientKey);
  if (logged) return { state: "logged", totalMinutes: logged.totalMinutes };
  if (refused) return { state: "refused" };
  return { state: "waiting" };
}

/** Whether the outbox marked `clientKey` refused, live across tabs (kept per key). */
function useRefusalMark(clientKey: string | undefined): boolean {
  const [refusedKey, setRefusedKey] = useState<string | null>(null);
  useEffect(() => {
    if (clientKey === undefined) return;
    let live = true;
    const check = () =>
      void wasRefused(clientKey).then(
        (refused) => live && refused && setRefusedKey(clientKey),
        () => undefined,
      );
    check();
    const stop = onOutboxChange(check);
    return () => {
      live = false;
      stop();
    };
  }, [clientKey]);
  return clientKey !== undefined && refusedKey === clientKey;
}
