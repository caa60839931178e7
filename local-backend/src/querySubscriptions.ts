/**
 * The shared query executions behind subscriptions: subscriptions with the
 * same function, arguments, identity and journal share one `Entry`, computed
 * once per change. Each run records its read set; a commit marks dirty the
 * entries whose read set its writes touch, and the next flush re-runs them.
 *
 * Like Convex's query cache, a result outlives its last subscriber: the entry
 * stays (idle) while no write touches what it read, so the next client asking
 * the same (a visitor opening the scene after another left) gets it without a
 * run. Idle entries are dropped when a write touches their read set, when the
 * functions are reloaded, after IDLE_MAX_AGE_MS, and oldest first beyond
 * IDLE_MAX_ENTRIES or IDLE_MAX_BYTES (results with their keys and arguments). A reload re-runs every
 * live entry with the new functions (sync.ts), as a push does on Convex.
 *
 * HTTP queries (/api/query) go through the same entries (serveOnce), as
 * Convex's function cache serves the HTTP API and the sync worker alike: the
 * page's first-page fetch and the subscription that follows it run once.
 */
import { convexToJson } from "convex/values";
import type { Engine } from "./engine.js";
import { describeError } from "./functionErrors.js";
import { type Caller, captureLogs, type Journal } from "./functionContext.js";
import { BULK_WRITE_THRESHOLD, ReadSet, type Change } from "./readSet.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";

/** Idle entries kept at most (see the module's comment). */
export const IDLE_MAX_ENTRIES = 1_000;
/** What idle entries hold at most (idleCost: result, key and arguments), in UTF-16 code units. */
export const IDLE_MAX_BYTES = 32 * 2 ** 20;
/** An idle entry is dropped after this long without a subscriber (a query may read the clock). */
export const IDLE_MAX_AGE_MS = 5 * 60_000;

function parseJournal(journal: string | null): Journal {
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
    return { ok: true, value: convexToJson((value ?? null) as any) };
  } catch (error) {
    const { message, data } = describeError(error);
    return data === undefined ? { ok: false, message } : { ok: false, message, data };
  }
}

export type Entry = {
  key: string;
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

/**
 * What an idle entry holds: its result, its key (the arguments' JSON is in it)
 * and its arguments again as values. Convex sizes its cache entries the same
 * way (path, arguments, identity and journal with the result). Counting the
 * result alone let one stranger's POSTs with distinct multi-megabyte arguments
 * keep 1,000 of them.
 */
function idleCost(entry: Entry): number {
  return entry.serialized.length + 2 * entry.key.length;
}

export class QueryEntries {
  private entries = new Map<string, Entry>();
  /** Entries without subscribers whose result is kept, oldest first (see the module's comment). */
  private idle = new Map<string, Entry>();
  private idleBytes = 0;
  /** Entries whose last read set touches each table (the candidates a write to it may invalidate). */
  private readers = new Map<string, Set<Entry>>();
  /** Query executions since start (first runs and re-runs), for tests and benchmarks. */
  queryRuns = 0;

  constructor(private readonly engine: Engine) {}

  /** Entries with subscribers. */
  get size(): number {
    return this.entries.size - this.idle.size;
  }

  /** Results kept without subscribers. */
  get cached(): number {
    return this.idle.size;
  }

  /** Computes every new or dirty entry (inside the caller's snapshot); `counted` is called per run. */
  async computeDue(counted: () => void): Promise<void> {
    for (const entry of [...this.entries.values()]) {
      if (entry.refs > 0 && (entry.dirty || entry.result === null || entry.bundle !== this.engine.functions.bundle)) {
        await this.compute(entry);
        counted();
      }
    }
  }

  /** Marks dirty every entry whose read set one of the commit's writes intersects. */
  invalidate(changes: Change[]): void {
    const byTable = new Map<string, Change[]>();
    for (const change of changes) {
      let list = byTable.get(change.table);
      if (!list) byTable.set(change.table, (list = []));
      list.push(change);
    }
    const stale: Entry[] = [];
    for (const [table, list] of byTable) {
      const readers = this.readers.get(table);
      if (!readers) continue;
      for (const entry of readers) {
        if (entry.dirty) continue;
        if (list.length > BULK_WRITE_THRESHOLD || entry.reads === null) {
          entry.dirty = true;
        } else {
          for (const change of list) {
            let hit: boolean;
            try {
              hit = entry.reads.intersects(change);
            } catch {
              hit = true;
            }
            if (hit) {
              entry.dirty = true;
              break;
            }
          }
        }
        if (entry.dirty && entry.refs <= 0) stale.push(entry);
      }
    }
    // An idle result the write made stale is dropped, not re-run.
    for (const entry of stale) this.drop(entry);
  }

  /**
   * Marks every entry stale: the deployment's variables changed, which every
   * function reads (Convex reads them in each function's transaction, so a
   * change invalidates every query). Idle results are dropped.
   */
  invalidateAll(): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.refs > 0) entry.dirty = true;
      else this.drop(entry);
    }
  }

  /** Points the per-table reader index at an entry's new read set. */
  private setReads(entry: Entry, reads: ReadSet | null): void {
    if (entry.reads) {
      for (const table of entry.reads.touchedTables()) this.readers.get(table)?.delete(entry);
    }
    entry.reads = reads;
    if (reads && (entry.refs > 0 || this.idle.has(entry.key))) {
      for (const table of reads.touchedTables()) {
        let set = this.readers.get(table);
        if (!set) this.readers.set(table, (set = new Set()));
        set.add(entry);
      }
    }
  }

  /** Runs an entry's query at the current state (only from flush, inside its snapshot). */
  private async compute(entry: Entry): Promise<void> {
    const started = TRACE ? performance.now() : 0;
    entry.dirty = false;
    entry.bundle = this.engine.functions.bundle;
    entry.running = true;
    const fromBase = journalString(entry.journal) === entry.baseJournal;
    const seq = this.engine.commitSeq;
    this.queryRuns++;
    const reads = new ReadSet();
    const logLines: string[] = [];
    const result = await functionResult(logLines, () =>
      this.engine.query(entry.udfPath, entry.args, entry.caller, reads, entry.journal),
    );
    entry.running = false;
    // A commit around the run (one waiting for the lock before the snapshot's hold) may have
    // landed after it read and before its read set is indexed below: run it again to be sure.
    if (this.engine.commitSeq !== seq) entry.dirty = true;
    const ran = TRACE ? performance.now() : 0;
    if (entry.refs <= 0) {
      // Its last subscriber left during the run: nothing to keep.
      this.drop(entry);
      return;
    }
    this.setReads(entry, reads);
    entry.fromBase = fromBase;
    const serialized = JSON.stringify(result);
    if (TRACE) {
      const done = performance.now();
      this.engine.log(
        `[trace] ${entry.udfPath} ran in ${(ran - started).toFixed(1)} ms, ${serialized.length} bytes serialized in ${(done - ran).toFixed(1)} ms`,
      );
    }
    if (serialized !== entry.serialized) {
      entry.serialized = serialized;
      entry.result = result;
      entry.logLines = logLines;
      entry.modTail = "";
      entry.version++;
    }
  }

  /**
   * An HTTP query (Convex's /api/query): served from the entry subscriptions
   * with the same function, arguments and identity share, as Convex's function
   * cache serves both. A result is served only while it is valid now (no write
   * touched its read set since its run, same functions, not being re-run) and
   * came from a run that started without a journal (an HTTP query has none).
   * Otherwise the entry is computed inside a snapshot, as a flush computes it;
   * a subscription waiting for it gets that run. Released after: the result
   * stays idle under the rules above. An entry whose page end a subscription
   * pinned, and needs a run, is not the HTTP query's: that runs on its own.
   */
  async serveOnce(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
  ): Promise<{ result: QueryResult; logLines: string[] }> {
    const entry = this.acquire(udfPath, args, caller);
    let served: { result: QueryResult; logLines: string[] } | null = null;
    try {
      served = this.servable(entry);
      if (!served && journalString(entry.journal) === entry.baseJournal) {
        served = await this.engine.runSnapshot(async () => {
          for (;;) {
            const seq = this.engine.commitSeq;
            if (entry.dirty || entry.result === null || entry.bundle !== this.engine.functions.bundle) {
              // A subscription's run may have pinned its page end meanwhile.
              if (journalString(entry.journal) !== entry.baseJournal) return null;
              await this.compute(entry);
            }
            if (this.engine.commitSeq === seq) break;
          }
          // Taken inside the snapshot: valid at its state even if a commit lands right after.
          return this.servable(entry);
        });
      }
    } finally {
      this.release(entry);
    }
    return served ?? (await this.runUncached(udfPath, args, caller));
  }

  /** An entry's result and log lines if they are valid at the current state for a caller without a journal. */
  private servable(entry: Entry): { result: QueryResult; logLines: string[] } | null {
    const valid =
      entry.result !== null &&
      !entry.dirty &&
      !entry.running &&
      entry.fromBase &&
      entry.bundle === this.engine.functions.bundle;
    return valid ? { result: entry.result!, logLines: entry.logLines } : null;
  }

  /** A run outside the entries (not counted in queryRuns, nothing kept). */
  private async runUncached(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
  ): Promise<{ result: QueryResult; logLines: string[] }> {
    const logLines: string[] = [];
    const result = await functionResult(logLines, () => this.engine.query(udfPath, args, caller));
    return { result, logLines };
  }

  acquire(udfPath: string, args: Record<string, unknown>, caller: Caller, journal: string | null = null): Entry {
    const callerKey = caller.kind === "user" ? `user:${caller.key}` : caller.kind;
    const key = `${udfPath}\u0000${JSON.stringify(convexToJson(args as any))}\u0000${callerKey}\u0000${journal ?? ""}`;
    let entry = this.entries.get(key);
    if (entry && entry.refs <= 0) {
      // An idle result: kept if it is still the current functions' and young enough.
      this.idle.delete(key);
      this.idleBytes -= idleCost(entry);
      if (entry.bundle !== this.engine.functions.bundle || Date.now() - entry.idleSince > IDLE_MAX_AGE_MS) {
        this.entries.delete(key);
        this.setReads(entry, null);
        entry = undefined;
      }
    }
    if (!entry) {
      entry = {
        key,
        journal: parseJournal(journal),
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
        baseJournal: journalString(parseJournal(journal)),
        fromBase: true,
        running: false,
      };
      this.entries.set(key, entry);
    }
    entry.refs++;
    return entry;
  }

  release(entry: Entry): void {
    entry.refs--;
    if (entry.refs > 0) return;
    const keep =
      entry.result !== null &&
      !entry.dirty &&
      entry.reads !== null &&
      idleCost(entry) <= IDLE_MAX_BYTES / 8 &&
      this.entries.get(entry.key) === entry;
    if (!keep) {
      this.drop(entry);
      return;
    }
    entry.idleSince = Date.now();
    this.idle.set(entry.key, entry);
    this.idleBytes += idleCost(entry);
    for (const [, oldest] of this.idle) {
      if (this.idle.size <= IDLE_MAX_ENTRIES && this.idleBytes <= IDLE_MAX_BYTES) break;
      this.drop(oldest);
    }
  }

  /** Forgets an entry without subscribers (idle or never kept). */
  private drop(entry: Entry): void {
    if (this.idle.delete(entry.key)) this.idleBytes -= idleCost(entry);
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    this.setReads(entry, null);
  }
}
