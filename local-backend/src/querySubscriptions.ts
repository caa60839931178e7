/**
 * The shared query executions behind subscriptions: subscriptions with the
 * same function, arguments, identity and journal share one `Entry`, computed
 * once per change. Each run records its read set; a commit marks dirty the
 * entries whose read set its writes touch, and the next flush re-runs them.
 */
import { convexToJson } from "convex/values";
import type { Engine } from "./engine.js";
import { describeError } from "./functionErrors.js";
import { type Caller, captureLogs, type Journal } from "./functionContext.js";
import { BULK_WRITE_THRESHOLD, ReadSet, type Change } from "./readSet.js";

const TRACE = process.env.LOCAL_BACKEND_TRACE === "1";

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
};

/**
 * One query of a session. `live` is false while the ModifyQuerySet or
 * Authenticate that made it waits for the flush computing it: its result goes
 * out with that flush's Transition, which also carries the new version.
 */
export type Subscription = { entry: Entry; sentVersion: number; live: boolean };

export class QueryEntries {
  private entries = new Map<string, Entry>();
  /** Entries whose last read set touches each table (the candidates a write to it may invalidate). */
  private readers = new Map<string, Set<Entry>>();
  /** Query executions since start (first runs and re-runs), for tests and benchmarks. */
  queryRuns = 0;

  constructor(private readonly engine: Engine) {}

  get size(): number {
    return this.entries.size;
  }

  /** Computes every new or dirty entry (inside the caller's snapshot); `counted` is called per run. */
  async computeDue(counted: () => void): Promise<void> {
    for (const entry of [...this.entries.values()]) {
      if (entry.refs > 0 && (entry.dirty || entry.result === null)) {
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
    for (const [table, list] of byTable) {
      const readers = this.readers.get(table);
      if (!readers) continue;
      for (const entry of readers) {
        if (entry.dirty) continue;
        if (list.length > BULK_WRITE_THRESHOLD || entry.reads === null) {
          entry.dirty = true;
          continue;
        }
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
    }
  }

  /** Points the per-table reader index at an entry's new read set. */
  private setReads(entry: Entry, reads: ReadSet | null): void {
    if (entry.reads) {
      for (const table of entry.reads.touchedTables()) this.readers.get(table)?.delete(entry);
    }
    entry.reads = reads;
    if (reads && entry.refs > 0) {
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
    this.queryRuns++;
    const reads = new ReadSet();
    const logLines: string[] = [];
    let result: QueryResult;
    try {
      const value = await captureLogs(logLines, () =>
        this.engine.query(entry.udfPath, entry.args, entry.caller, reads, entry.journal),
      );
      result = { ok: true, value: convexToJson((value ?? null) as any) };
    } catch (error) {
      const { message, data } = describeError(error);
      result = data === undefined ? { ok: false, message } : { ok: false, message, data };
    }
    const ran = TRACE ? performance.now() : 0;
    this.setReads(entry, reads);
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

  acquire(udfPath: string, args: Record<string, unknown>, caller: Caller, journal: string | null = null): Entry {
    const callerKey = caller.kind === "user" ? `user:${caller.key}` : caller.kind;
    const key = `${udfPath}\u0000${JSON.stringify(convexToJson(args as any))}\u0000${callerKey}\u0000${journal ?? ""}`;
    let entry = this.entries.get(key);
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
      };
      this.entries.set(key, entry);
    }
    entry.refs++;
    return entry;
  }

  release(entry: Entry): void {
    entry.refs--;
    if (entry.refs <= 0) {
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      this.setReads(entry, null);
    }
  }
}
