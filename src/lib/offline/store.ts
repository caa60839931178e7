import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { EventDetails, VenueInput } from "@convex/model/events";
import { OFFLINE_DB_NAME } from "./dbName";

/** A set logged without a connection, waiting in the outbox until the server has it. */
export type QueuedSet = {
  /** The idempotency key the server checks: a resend never logs twice. */
  clientKey: string;
  userId: string;
  queuedAt: number;
  set: {
    minutes: number;
    performedAt: number;
    tags: string[];
    timeZone?: string;
    notes?: string;
    sceneItemId?: string;
    venueName?: string;
  };
  /** A mic or show the scene did not list yet: sent with its details (performances.logWithNewMic). */
  newMic?: { venue: VenueInput; details: EventDetails; alsoAddToScene: boolean };
  /** Shown in the outbox list. */
  label: string;
};

/** A name on a live list, as the device keeps it. */
export type OfflineListRow = {
  name: string;
  /** 1-based place in its section. */
  place: number;
  section: "list" | "waitlist" | "pool";
  state: "waiting" | "up" | "done" | "no_show";
  /** This comedian's own row. */
  mine: boolean;
};

/** A mic's live list tonight, as the device keeps it (capped at {@link SNAPSHOT_CAPS.listRows} names). */
export type OfflineList = { status: "open" | "closed"; spots: number; taken: number; rows: OfflineListRow[] };

/** What a comedian needs at the mic, kept for an offline start. Every list is capped. */
export type Snapshot = {
  userId: string;
  savedAt: number;
  /** Tonight's mics they follow (favourites) or scheduled, in start order, with tonight's live list when known. */
  tonight: {
    sceneItemId: string;
    title: string;
    venueName: string;
    startsAt: number;
    status: string | null;
    following?: "scheduled" | "favourite";
    list?: OfflineList | null;
  }[];
  /** Their spots on tonight's live lists ("You're #4 on tonight's list at …"). */
  myPlace: { micTitle: string; label: string; sentence?: string }[];
  /** This week's schedule (mics and sets). */
  week: { key: string; title: string; venueName: string; startsAt: number; detail: string }[];
  /** Their last sets, newest first. */
  lastSets: { key: string; venueName: string; performedAt: number; minutes: number }[];
  /** The mics they follow or scheduled, whatever the night: the log wizard offers them offline. */
  mics?: OfflineMic[];
};

/** A mic the comedian follows or scheduled, enough to log a set at it without a connection. */
export type OfflineMic = { sceneItemId: string; title: string; venueName: string; city: string };

export const SNAPSHOT_CAPS = { tonight: 20, myPlace: 10, week: 50, lastSets: 10, mics: 40, listRows: 60 } as const;
/** At most this many sets wait per account (one busy week without signal). */
export const OUTBOX_CAP = 50;

interface OfflineDb extends DBSchema {
  outbox: { key: string; value: QueuedSet; indexes: { by_user: string } };
  snapshots: { key: string; value: Snapshot };
  meta: { key: string; value: { key: string; userId: string } };
}

let opening: Promise<IDBPDatabase<OfflineDb>> | null = null;

function db(): Promise<IDBPDatabase<OfflineDb>> {
  opening ??= openDB<OfflineDb>(OFFLINE_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore("outbox", { keyPath: "clientKey" }).createIndex("by_user", "userId");
      database.createObjectStore("snapshots", { keyPath: "userId" });
      database.createObjectStore("meta", { keyPath: "key" });
    },
    // A sign-out deletes the database: let go of it, and open it afresh next time.
    blocking() {
      const open = opening;
      opening = null;
      void open?.then((database) => database.close());
    },
  });
  return opening;
}

/** The account this device last saw signed in (whose snapshot an offline start shows). */
export async function lastAccount(): Promise<string | null> {
  return (await (await db()).get("meta", "account"))?.userId ?? null;
}

export async function rememberAccount(userId: string): Promise<void> {
  await (await db()).put("meta", { key: "account", userId });
}

export async function saveSnapshot(snapshot: Snapshot): Promise<void> {
  await (
    await db()
  ).put("snapshots", {
    ...snapshot,
    tonight: snapshot.tonight
      .slice(0, SNAPSHOT_CAPS.tonight)
      .map((mic) =>
        mic.list ? { ...mic, list: { ...mic.list, rows: mic.list.rows.slice(0, SNAPSHOT_CAPS.listRows) } } : mic,
      ),
    myPlace: snapshot.myPlace.slice(0, SNAPSHOT_CAPS.myPlace),
    week: snapshot.week.slice(0, SNAPSHOT_CAPS.week),
    lastSets: snapshot.lastSets.slice(0, SNAPSHOT_CAPS.lastSets),
    mics: snapshot.mics?.slice(0, SNAPSHOT_CAPS.mics),
  });
}

export async function readSnapshot(userId: string): Promise<Snapshot | null> {
  return (await (await db()).get("snapshots", userId)) ?? null;
}

/** Puts a set in the outbox; false when the account's outbox is full. */
export async function queueSet(entry: QueuedSet): Promise<boolean> {
  const database = await db();
  const tx = database.transaction("outbox", "readwrite");
  const count = await tx.store.index("by_user").count(entry.userId);
  if (count >= OUTBOX_CAP) {
    await tx.done;
    return false;
  }
  await tx.store.put(entry);
  await tx.done;
  notifyOutbox();
  return true;
}

export async function queuedSets(userId: string): Promise<QueuedSet[]> {
  const sets = await (await db()).getAllFromIndex("outbox", "by_user", userId);
  return sets.sort((a, b) => a.queuedAt - b.queuedAt);
}

// A set the server refused for good leaves a mark, so a page waiting on it can say so (also after a reload).
const refusedMark = (clientKey: string) => `refused:${clientKey}`;

export async function wasRefused(clientKey: string): Promise<boolean> {
  return (await (await db()).getKey("meta", refusedMark(clientKey))) !== undefined;
}

/** Takes a set out of the outbox: sent, or refused for good (marked so, in the same transaction). */
export async function removeQueuedSet(
  entry: Pick<QueuedSet, "clientKey" | "userId">,
  outcome: "sent" | "refused",
): Promise<void> {
  const tx = (await db()).transaction(["outbox", "meta"], "readwrite");
  await tx.objectStore("outbox").delete(entry.clientKey);
  if (outcome === "refused")
    await tx.objectStore("meta").put({ key: refusedMark(entry.clientKey), userId: entry.userId });
  await tx.done;
  notifyOutbox();
}

// Other tabs and components learn that the outbox changed.
const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("stagetime-outbox");
const listeners = new Set<() => void>();
channel?.addEventListener("message", () => listeners.forEach((listener) => listener()));

function notifyOutbox(): void {
  listeners.forEach((listener) => listener());
  channel?.postMessage("changed");
}

export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
