import { useConvex, useConvexAuth, useQueries, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useEffect, useMemo, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { localDateString } from "@convex/lib/time";
import { scheduleWeek } from "@convex/lib/weeks";
import { queuedSets, rememberAccount, removeQueuedSet, saveSnapshot, type QueuedSet } from "@/lib/offline/store";
import { useOutboxRead } from "@/lib/offline/useOutboxRead";
import { toast } from "@/lib/toast";
import { useNow } from "@/lib/useNow";
import { viewerTimeZone } from "@/lib/timeZone";
import { flushOutbox } from "./flushOutbox";
import { buildSnapshot, listsToWatch } from "./snapshot";

const LAST_SETS = 5;

/**
 * While signed in and online: keeps this account's offline copy (tonight's mics they follow or
 * scheduled with their live lists, their place on them, the week, their last sets) up to date as
 * the live queries change (sign-out forgets it: clearLocalSessionState).
 */
export function useOfflineCapture(): string | null {
  const { isAuthenticated } = useConvexAuth();
  const me = useQuery(api.profiles.me, isAuthenticated ? {} : "skip");
  const nowMs = useNow(5 * 60_000);
  const timeZone = useMemo(viewerTimeZone, []);
  const week = useMemo(() => scheduleWeek(localDateString(nowMs, timeZone), timeZone), [nowMs, timeZone]);
  const signedIn = isAuthenticated && me != null;
  const weekData = useQuery(
    api.schedule.week,
    signedIn ? { weekStartMs: week.startMs, weekEndMs: week.endMs, nowMs } : "skip",
  );
  const sets = useQuery(
    api.history.list,
    signedIn ? { paginationOpts: { numItems: LAST_SETS, cursor: null } } : "skip",
  );
  const spots = useQuery(api.nightLists.myRecent, signedIn ? {} : "skip");
  const favorites = useQuery(api.favorites.list, signedIn ? {} : "skip");
  const watched = useMemo(
    () =>
      weekData === undefined || spots === undefined || favorites === undefined
        ? []
        : listsToWatch({ nowMs, timeZone, week: weekData, spots, favorites }),
    [nowMs, timeZone, weekData, spots, favorites],
  );
  const lists = useQueries(
    useMemo(
      () =>
        Object.fromEntries(
          watched.map((micId) => [
            micId,
            { query: api.nightLists.current, args: { micId: micId as Id<"sceneItems"> } },
          ]),
        ),
      [watched],
    ),
  );
  const userId = signedIn ? me.userId : null;

  useEffect(() => {
    if (userId === null || weekData === undefined || sets === undefined || spots === undefined) return;
    if (favorites === undefined) return;
    // Wait for the watched lists (one that fails is left out rather than holding the copy back).
    const views = watched.map((micId) => lists[micId] as ListAnswer | Error | undefined);
    if (views.some((view) => view === undefined)) return;
    const snapshot = buildSnapshot({
      userId,
      nowMs: Date.now(),
      timeZone,
      week: weekData,
      sets: sets.page,
      spots,
      favorites,
      lists: views.flatMap((view) => (view instanceof Error || !view?.list ? [] : [view.list])),
    });
    void Promise.all([rememberAccount(userId), saveSnapshot(snapshot)]).catch(() => undefined);
  }, [userId, weekData, sets, spots, favorites, watched, lists, timeZone]);

  return userId;
}

type ListAnswer = FunctionReturnType<typeof api.nightLists.current>;

const NO_SETS: QueuedSet[] = [];

/** The account's outbox, live (this tab's and other tabs' changes). */
export function useOutbox(userId: string | null): QueuedSet[] {
  return useOutboxRead(userId, queuedSets, NO_SETS);
}

/**
 * Sends the account's waiting sets, oldest first, once the backend is reachable. Each
 * carries its idempotency key, so a send whose answer was lost is resent safely; one tab
 * sends at a time (a Web Lock), and a set the server refuses leaves the outbox with a toast.
 */
export function useOutboxSync(userId: string | null, online: boolean, pending: number): void {
  const convex = useConvex();
  // Bumped by a timer after a transient refusal, so the outbox tries again without a reload.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (userId === null || !online || pending === 0) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = async (entry: QueuedSet) => {
      if (entry.newMic) {
        const { sceneItemId: _none, venueName: _name, ...set } = entry.set;
        return await convex.mutation(api.performances.logWithNewMic, {
          ...entry.newMic,
          set,
          clientKey: entry.clientKey,
        });
      }
      return await convex.mutation(api.performances.log, {
        ...entry.set,
        sceneItemId: entry.set.sceneItemId as Id<"sceneItems"> | undefined,
        clientKey: entry.clientKey,
      });
    };
    const flush = async () => {
      const result = await flushOutbox(
        await queuedSets(userId),
        send,
        removeQueuedSet,
        (entry, message) =>
          toast.error("A set saved offline could not be logged", { description: message ?? entry.label }),
        () => cancelled,
      );
      if (result.kind === "retry" && !cancelled) timer = setTimeout(() => setAttempt((n) => n + 1), result.afterMs);
    };
    const locks = navigator.locks as LockManager | undefined;
    void (locks ? locks.request("stagetime-outbox", flush) : flush()).catch(() => undefined);
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [convex, userId, online, pending, attempt]);
}
