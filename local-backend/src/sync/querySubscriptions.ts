/**
 * The shared query executions behind subscriptions: subscriptions with the
 * same function, arguments, identity and journal share one `Entry`, computed
 * once per change. Each run records its read set; a commit marks dirty the
 * entries whose read set its writes touch, and the next flush re-runs them.
 *
 * The journal is part of the key, as in Convex's cache (RequestedCacheKey in
 * crates/application/src/cache/mod.rs): a paginated query's first run fixes
 * its page end in its journal (sent back in QueryUpdated, re-sent by a client
 * that reconnects), and its re-runs keep that end, so the entry moves to the
 * key of its new journal. Like Convex, which records a first run under both
 * the journal it was asked with and the one it made, a caller without a
 * journal shares that first run while it is still valid (`firstRuns`); once a
 * write touched it, such a caller gets a first page of its own, computed now.
 *
 * Errors are not cached (Convex: "We do not cache JSErrors"): a new caller
 * never joins an entry whose current result is an error, it runs the query
 * again; the subscriptions that got the error keep it until what it read
 * changes, as Convex's sync worker does.
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
import { type Caller, type FunctionModules, type Journal, servingThreadCpuMs } from "../runtime/index.js";
import {
  type Entry,
  functionResult,
  journalString,
  keyBase,
  keyOf,
  newEntry,
  parseJournal,
  type QueryResult,
  idleCost,
  startsFromBase,
} from "./queryEntry.js";
import { BULK_WRITE_THRESHOLD, ReadSet, type Change } from "../database/index.js";

export {
  type Entry,
  functionResult,
  journalString,
  modificationTail,
  newEntry,
  type QueryResult,
  type Subscription,
} from "./queryEntry.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";

/** Idle entries kept at most (see the module's comment). */
export const IDLE_MAX_ENTRIES = 1_000;
/** What idle entries hold at most (idleCost: result, key and arguments), in UTF-16 code units. */
export const IDLE_MAX_BYTES = 32 * 2 ** 20;
/** An idle entry is dropped after this long without a subscriber (a query may read the clock). */
export const IDLE_MAX_AGE_MS = 5 * 60_000;

/** What the shared query executions use of the engine: running a query at one snapshot, the bundle, the commit count. */
export type QueryHost = {
  readonly functions: Pick<FunctionModules, "bundle">;
  readonly commitSeq: number;
  query(
    udfPath: string,
    args: Record<string, unknown>,
    caller: Caller,
    reads?: ReadSet,
    journal?: Journal,
  ): Promise<unknown>;
  runSnapshot<T>(fn: () => Promise<T>): Promise<T>;
  log(line: string): void;
};

export class QueryEntries {
  /** Every entry with subscribers or a kept result, by key. */
  private entries = new Map<string, Entry>();
  /**
   * Entries whose last run started from the journal they were asked with and
   * made another (a paginated query's first run), by the key they were asked
   * with: a caller asking that key shares the run while it is still valid.
   */
  private firstRuns = new Map<string, Entry>();
  /** Suffixes of detached entries' keys. */
  private detached = 0;
  /** Entries without subscribers whose result is kept, oldest first (see the module's comment). */
  private idle = new Map<string, Entry>();
  private idleBytes = 0;
  /** Entries whose last read set touches each table (the candidates a write to it may invalidate). */
  private readers = new Map<string, Set<Entry>>();
  /** Query executions since start (first runs and re-runs), for tests and benchmarks. */
  queryRuns = 0;

  constructor(private readonly engine: QueryHost) {}

  /** Entries with subscribers. */
  get size(): number {
    return this.entries.size - this.idle.size;
  }

  /** Results kept without subscribers. */
  get cached(): number {
    return this.idle.size;
  }

  /** Whether an entry's result is missing or out of date (never run, touched by a write, or from older functions). */
  private needsRun(entry: Entry): boolean {
    return entry.dirty || entry.result === null || entry.bundle !== this.engine.functions.bundle;
  }

  /**
   * Computes new or dirty entries (inside the caller's snapshot) until `until` (performance.now()),
   * leaving the ones `skip` names for a later flush; `counted` gets each run and the serving
   * thread's CPU ms it took. Whether any entry not skipped is still due.
   */
  async computeDue(
    counted: (entry: Entry, cpuMs: number) => void,
    { until = Infinity, skip }: { until?: number; skip?: (entry: Entry) => boolean } = {},
  ): Promise<boolean> {
    for (const entry of [...this.entries.values()]) {
      if (entry.refs > 0 && this.needsRun(entry)) {
        if (skip?.(entry)) continue;
        if (performance.now() >= until) return true;
        const start = servingThreadCpuMs();
        await this.compute(entry);
        counted(entry, servingThreadCpuMs() - start);
      }
    }
    return false;
  }

  /** Whether a subscribed entry waits for a run (a session gets no Transition until it has run). */
  isDue(entry: Entry): boolean {
    return entry.refs > 0 && this.needsRun(entry);
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
    const fromBase = startsFromBase(entry);
    const seq = this.engine.commitSeq;
    this.queryRuns++;
    const reads = new ReadSet();
    const logLines: string[] = [];
    // The run's journal starts as the entry's and may fix a page end (syscalls.ts).
    const journal: Journal = { ...entry.journal };
    const result = await functionResult(logLines, () =>
      this.engine.query(entry.udfPath, entry.args, entry.caller, reads, journal),
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
    this.setJournal(entry, journal, fromBase);
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

  /** Keeps a run's journal: an entry whose journal changed moves to that journal's key (see the module's comment). */
  private setJournal(entry: Entry, journal: Journal, fromBase: boolean): void {
    const next = journalString(journal);
    if (next !== journalString(entry.journal)) {
      entry.journal = journal;
      entry.modTail = "";
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      const key = keyOf(entry.base, next);
      // Another entry already runs with that journal (a client that reconnected with it): this one stays apart.
      entry.key = this.entries.has(key) ? this.detachedKey(key) : key;
      this.entries.set(entry.key, entry);
    }
    entry.fromBase = fromBase;
    const asked = keyOf(entry.base, entry.baseJournal);
    if (fromBase && next !== entry.baseJournal) this.firstRuns.set(asked, entry);
    else if (this.firstRuns.get(asked) === entry) this.firstRuns.delete(asked);
  }

  /** Moves an entry out of its key's way, to a key no lookup asks for (its subscribers keep it). */
  private detach(entry: Entry): void {
    this.entries.delete(entry.key);
    entry.key = this.detachedKey(entry.key);
    this.entries.set(entry.key, entry);
  }

  /** A key derived from `key` that no lookup asks for. */
  private detachedKey(key: string): string {
    return `${key}\u0000#${++this.detached}`;
  }

  /**
   * An HTTP query (Convex's /api/query): served from the entry subscriptions
   * with the same function, arguments and identity share, as Convex's function
   * cache serves both. A result is served only while it is valid now (no write
   * touched its read set since its run, same functions, not being re-run),
   * came from a run that started without a journal (an HTTP query has none)
   * and is not an error (errors are not cached). Otherwise the entry is computed inside a snapshot, as a flush computes it;
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
      if (!served && startsFromBase(entry)) {
        served = await this.engine.runSnapshot(async () => {
          let ran = false;
          for (;;) {
            const seq = this.engine.commitSeq;
            if (this.needsRun(entry)) {
              // A subscription's run may have pinned its page end meanwhile.
              if (!startsFromBase(entry)) return null;
              await this.compute(entry);
              ran = true;
            }
            if (this.engine.commitSeq === seq) break;
          }
          // Taken inside the snapshot: valid at its state even if a commit lands right after. This
          // caller's own run answers it even with an error; another run's error is not served.
          return ran && entry.result ? { result: entry.result, logLines: entry.logLines } : this.servable(entry);
        });
      }
    } finally {
      this.release(entry);
    }
    return served ?? (await this.runUncached(udfPath, args, caller));
  }

  /** An entry's result and log lines if a new caller without a journal may be served them now (never an error). */
  private servable(entry: Entry): { result: QueryResult; logLines: string[] } | null {
    const valid = entry.result?.ok === true && entry.fromBase && this.settled(entry);
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

  /**
   * A reference to the entry for a caller asking with `journal` (null: none):
   * the one running with that journal, else a still valid first run asked
   * with it, else a new one. An entry whose current result is an error is
   * never joined: it is detached and the caller gets a new entry.
   */
  acquire(udfPath: string, args: Record<string, unknown>, caller: Caller, journal: string | null = null): Entry {
    const base = keyBase(udfPath, args, caller);
    const key = keyOf(base, journalString(parseJournal(journal)));
    let entry = this.reuse(this.entries.get(key));
    if (entry && this.settledError(entry)) {
      this.detach(entry);
      entry = undefined;
    }
    if (!entry) {
      const first = this.firstRuns.get(key);
      // Shared only while an HTTP caller could be served it too (same functions included).
      if (first && this.servable(first)) entry = this.reuse(first);
    }
    if (!entry) {
      entry = newEntry(key, base, udfPath, args, caller, journal);
      this.entries.set(key, entry);
    }
    entry.refs++;
    return entry;
  }

  /** An entry found by a lookup, taken out of the idle ones; undefined if its kept result is too old or stale. */
  private reuse(entry: Entry | undefined): Entry | undefined {
    if (!entry || entry.refs > 0) return entry;
    this.idle.delete(entry.key);
    this.idleBytes -= idleCost(entry);
    if (entry.bundle !== this.engine.functions.bundle || Date.now() - entry.idleSince > IDLE_MAX_AGE_MS) {
      this.drop(entry);
      return undefined;
    }
    return entry;
  }

  /** Whether an entry's result is an error no run under way or due will replace. */
  private settledError(entry: Entry): boolean {
    return entry.result?.ok === false && this.settled(entry);
  }

  /** Whether no run of an entry is under way or due (no write since, same functions). */
  private settled(entry: Entry): boolean {
    return !entry.dirty && !entry.running && entry.bundle === this.engine.functions.bundle;
  }

  release(entry: Entry): void {
    entry.refs--;
    if (entry.refs > 0) return;
    // Errors are not kept, nor entries no lookup can find (detached).
    const keep =
      entry.result?.ok === true &&
      entry.key === keyOf(entry.base, journalString(entry.journal)) &&
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
    const asked = keyOf(entry.base, entry.baseJournal);
    if (this.firstRuns.get(asked) === entry) this.firstRuns.delete(asked);
    this.setReads(entry, null);
  }
}
