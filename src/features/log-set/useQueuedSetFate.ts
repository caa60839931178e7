import { useConvex, useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { isQueued, onOutboxChange } from "@/lib/offline/store";

export type QueuedSetFate = { state: "waiting" } | { state: "logged"; totalMinutes: number } | { state: "refused" };

/**
 * What became of a set saved on this phone: still waiting in the outbox, logged (the server has
 * it under its key, whichever tab sent it), or gone from the outbox without being logged.
 */
export function useQueuedSetFate(clientKey: string | undefined): QueuedSetFate {
  const convex = useConvex();
  const { isAuthenticated } = useConvexAuth();
  const ask = clientKey !== undefined && isAuthenticated;
  const logged = useQuery(api.performances.loggedWith, ask ? { clientKey } : "skip");
  const queued = useStillQueued(clientKey);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    // Out of the outbox and not seen logged: ask the server afresh (this page's live
    // answer may lag another tab's send) before calling the set refused.
    if (!ask || queued !== false || logged !== null) return;
    let live = true;
    convex.query(api.performances.loggedWith, { clientKey }).then(
      (answer) => live && setRefused(answer === null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ask, queued, logged, convex, clientKey]);
  if (logged) return { state: "logged", totalMinutes: logged.totalMinutes };
  if (refused && queued === false) return { state: "refused" };
  return { state: "waiting" };
}

/** Whether `clientKey` is still in this device's outbox (undefined until known), live across tabs. */
function useStillQueued(clientKey: string | undefined): boolean | undefined {
  const [queued, setQueued] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (clientKey === undefined) return;
    let live = true;
    const check = () =>
      void isQueued(clientKey).then(
        (found) => live && setQueued(found),
        () => undefined,
      );
    check();
    const stop = onOutboxChange(check);
    return () => {
      live = false;
      stop();
    };
  }, [clientKey]);
  return queued;
}
