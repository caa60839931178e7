/**
 * One shared query execution (`Entry`) and what it is made of: its key (the
 * function, arguments, identity and journal, as Convex's query cache keys a
 * result), its journal (a paginated query's fixed page end), its result and
 * the modification subscribers are sent. querySubscriptions.ts keeps them.
 */
import { convexToJson, type Value } from "convex/values";
import { type Caller, captureLogs, type Journal, describeError } from "../runtime/index.js";
import type { ReadSet } from "../database/index.js";

export function parseJournal(journal: string | null): Journal {
  if (!journal) return {};
  try {
    const parsed = JSON.parse(journal);
    return typeof parsed?.endCursor === "string" ? { endCursor: parsed.endCursor } : {};
  } catch {
    return {};
  }
}

export function journalString(journal: Journal): string | null {
  return journal.endCursor ? JSON.stringify({ endCursor: journal.endCursor }) : null;
}

/** `"type":...,"value":...}`: a modification without its leading query id. */
export function modificationTail(entry: Entry): string {
  const r = entry.result!;
  const journal = journalString(entry.journal);
  const body = r.ok
    ? { type: "QueryUpdated", value: r.value, logLines: entry.logLines, journal }
    : {
        type: "QueryFailed",
        errorMessage: r.message,
        logLines: entry.logLines,
        journal,
        ...(r.data !== undefined ? { errorData: r.data } : {}),
      };
  return JSON.stringify(body).slice(1);
}

export type QueryResult = { ok: true; value: unknown } | { ok: false; message: string; data?: unknown };

/** Runs a function, its console output into `logLines`: its value as JSON, or its error as clients see it. */
export async function functionResult(logLines: string[], run: () => Promise<unknown>): Promise<QueryResult> {
  try {
    const value = await captureLogs(logLines, run);
    return { ok: true, value: convexToJson((value ?? null) as Value) };
  } catch (error) {
    const { message, data } = describeError(error);
    return data === undefined ? { ok: false, message } : { ok: false, message, data };
  }
}

export type Entry = {
  /** Where `entries` holds it: `keyOf(base, its journal)`, or that with a suffix no lookup asks for (detached). */
  key: string;
  /** The function, arguments and identity part of its key. */
  base: string;
  journal: Journal;
  udfPath: string;
  args: Record<string, unknown>;
  caller: Caller;
  /** What the last run read (null before the first run): commits that touch it re-run the entry. */
  reads: ReadSet | null;
  result: QueryResult | null;
  logLines: string[];
  serialized: string;
  /** The Transition modification for this version, minus the query id (built once, sent to every subscriber). */
  modTail: string;
  version: number;
  dirty: boolean;
  refs: number;
  /** The functions' bundle its result was computed with (a reload makes an idle result stale). */
  bundle: unknown;
  /** When the last subscriber left (idle entries only). */
  idleSince: number;
  /** The journal the entry was asked with (its key's), serialized. */
  baseJournal: string | null;
  /** Whether its result's run started from `baseJournal` (not from an end cursor a later run pinned). */
  fromBase: boolean;
  /** Set while a run computes it: its result is the previous one until the run ends. */
  running: boolean;
};

/**
 * One query of a session. `live` is false while the ModifyQuerySet or
 * Authenticate that made it waits for the flush computing it: its result goes
 * out with that flush's Transition, which also carries the new version.
 */
export type Subscription = {
  entry: Entry;
  sentVersion: number;
  live: boolean;
  /** What a subscription that failed before running (unknown function, bad arguments) asked for. */
  request?: { udfPath: unknown; args: unknown; journal: unknown };
};

/** The function, arguments and identity part of an entry's key. */
export function keyBase(udfPath: string, args: Record<string, unknown>, caller: Caller): string {
  const callerKey = caller.kind === "user" ? `user:${caller.key}` : caller.kind;
  return `${udfPath}\u0000${JSON.stringify(convexToJson(args as Value))}\u0000${callerKey}`;
}

export const keyOf = (base: string, journal: string | null) => `${base}\u0000${journal ?? ""}`;

/** A new entry, not yet run (the journal as a client sent it, normalized). */
export function newEntry(
  key: string,
  base: string,
  udfPath: string,
  args: Record<string, unknown>,
  caller: Caller,
  journal: string | null,
): Entry {
  const parsed = parseJournal(journal);
  return {
    key,
    base,
    journal: parsed,
    udfPath,
    args,
    caller,
    reads: null,
    result: null,
    logLines: [],
    serialized: "",
    modTail: "",
    version: 0,
    dirty: false,
    refs: 0,
    bundle: null,
    idleSince: 0,
    baseJournal: journalString(parsed),
    fromBase: true,
    running: false,
  };
}

/** Whether an entry runs from the journal it was asked with (no later run pinned its page end). */
export function startsFromBase(entry: Entry): boolean {
  return journalString(entry.journal) === entry.baseJournal;
}

/**
 * What an idle entry holds: its result, its key (the arguments' JSON is in it)
 * and its arguments again as values. Convex sizes its cache entries the same
 * way (path, arguments, identity and journal with the result). Counting the
 * result alone let one stranger's POSTs with distinct multi-megabyte arguments
 * keep 1,000 of them.
 */
export function idleCost(entry: Entry): number {
  return entry.serialized.length + 2 * entry.key.length;
}
