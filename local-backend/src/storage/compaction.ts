/**
 * Compaction's segment writing (the manifest swap and the log are store.ts's):
 * what changed since the last compaction as one more delta, the deltas merged
 * into the base buckets they touch, or (the first compaction, a migration, a
 * version 1 base) everything; a table that outgrew its buckets is rewritten whole. See segments.ts for the format.
 */
import path from "node:path";
import { FILE_MODE } from "./dataDir.js";
import type { JsonDoc } from "./dataLog.js";
import {
  type BaseGroup,
  baseSegments,
  bucketOf,
  levelFor,
  type Manifest,
  MANIFEST_FORMAT,
  SEGMENT_DOCS,
  SegmentWriter,
  type SegmentInfo,
  segmentLines,
} from "./segments.js";

/** What compaction reads the committed documents from (the engine's memory). */
export type DocSource = {
  /** The committed document under a data-log key, as Convex JSON, or null if there is none. */
  get(key: string): JsonDoc;
  /** Every committed document (a full rewrite: the first compaction, a migration). */
  all(): Iterable<[string, JsonDoc]>;
  /** Every committed document's key (a full rewrite counts each table's first). */
  keys(): Iterable<string>;
};

export type CompactionStats = {
  /** "delta": what changed, as a new delta; "merge": the deltas into the base buckets they touch; "full": everything. */
  kind: "none" | "delta" | "merge" | "full";
  ms: number;
  /** Bytes written to segment files. */
  bytes: number;
  /** Segment files written. */
  files: number;
  /** Lines (documents and tombstones) written. */
  docs: number;
  /** Documents that changed since the previous compaction. */
  changed: number;
};

/** At most this many deltas before they are merged into the base. */
const MAX_DELTAS = 16;

/** Sums the documents of some segments. */
export const docsIn = (segments: Iterable<SegmentInfo | null>) => {
  let n = 0;
  for (const s of segments) n += s?.docs ?? 0;
  return n;
};

/**
 * Writes the segments of the next manifest into `dir` (fsync'd, not yet
 * named by any manifest): `dirty` are the keys changed since the last
 * compaction, `deltaKeys` those the old manifest's deltas hold; `groupOf`
 * names the table whose base a key belongs in.
 */
export function writeSegments(args: {
  dir: string;
  old: Manifest | null;
  source: DocSource;
  dirty: ReadonlySet<string>;
  deltaKeys: ReadonlySet<string>;
  ts: bigint;
  schema: string;
  previousMaxCreation: number;
  groupOf: (key: string) => string;
}): { kind: CompactionStats["kind"]; next: Manifest; written: SegmentInfo[] } {
  const { dir, old, source, dirty, deltaKeys, ts, schema, previousMaxCreation, groupOf } = args;
  const changed = dirty.size;
  let nextFile = old?.nextFile ?? 1;
  const written: SegmentInfo[] = [];
  const writer = () => new SegmentWriter(dir, `${nextFile++}.seg`, FILE_MODE);
  const finish = (w: SegmentWriter): SegmentInfo | null => {
    const info = w.finish();
    written.push(info);
    return info;
  };
  /** A table's buckets at `level`, written as documents come (null: an empty bucket). */
  const bucketWriters = (level: number) => new Array<SegmentWriter | null>(2 ** level).fill(null);
  const finishAll = (writers: (SegmentWriter | null)[]) => writers.map((w) => (w ? finish(w) : null));
  let kind: CompactionStats["kind"];
  let next: Manifest;
  let maxCreation = old ? previousMaxCreation : 0;
  const json = (doc: Record<string, unknown>) => {
    const created = doc._creationTime;
    if (typeof created === "number" && created > maxCreation) maxCreation = created;
    return JSON.stringify(doc);
  };
  const common = { format: MANIFEST_FORMAT, version: 2, ts: ts.toString(), schema } as const;
  const oldBase = old?.version === 2 ? (old.tables ?? {}) : null;
  if (!old || !oldBase) {
    // Everything, from memory, each table into 2^level buckets (a version 1 base is migrated so).
    kind = "full";
    const counts = new Map<string, number>();
    for (const key of source.keys()) {
      const group = groupOf(key);
      counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    const groups = new Map<string, { level: number; writers: (SegmentWriter | null)[] }>();
    for (const [group, count] of counts) {
      const level = levelFor(count);
      groups.set(group, { level, writers: bucketWriters(level) });
    }
    for (const [key, doc] of source.all()) {
      if (!doc) continue;
      const group = groups.get(groupOf(key));
      if (!group) continue; // not counted: written after the count (nothing writes during a compaction)
      (group.writers[bucketOf(key, group.level)] ??= writer()).add(key, json(doc));
    }
    const tables: Record<string, BaseGroup> = {};
    for (const [name, group] of groups) tables[name] = { level: group.level, base: finishAll(group.writers) };
    next = { ...common, tables, deltas: [], nextFile };
  } else if (changed === 0) {
    kind = "none";
    next = { ...old, ts: ts.toString(), schema };
  } else if (
    old.deltas.length >= MAX_DELTAS ||
    docsIn(old.deltas) + changed > Math.max(SEGMENT_DOCS, docsIn(baseSegments(old)) / 4)
  ) {
    // The deltas and the changes into the base: only the buckets they touch are rewritten
    // (all of a table's when it has outgrown its level).
    kind = "merge";
    const keys = new Set<string>(deltaKeys);
    for (const key of dirty) keys.add(key);
    const byGroup = new Map<string, string[]>();
    for (const key of keys) {
      const group = groupOf(key);
      const list = byGroup.get(group);
      if (list) list.push(key);
      else byGroup.set(group, [key]);
    }
    const tables: Record<string, BaseGroup> = { ...oldBase };
    const copyLines = (previous: SegmentInfo | null, each: (key: string, line: string) => void) => {
      if (!previous) return;
      for (const line of segmentLines(path.join(dir, previous.file))) {
        const key = line.slice(0, line.indexOf("\t"));
        if (!keys.has(key)) each(key, line);
      }
    };
    for (const [group, groupKeys] of byGroup) {
      const before = oldBase[group];
      const level = Math.max(before?.level ?? 0, levelFor(docsIn(before?.base ?? []) + groupKeys.length));
      if (!before || level > before.level) {
        // A new table, or more documents than its buckets are for: all of it, into 2^level buckets.
        const writers = bucketWriters(level);
        for (const previous of before?.base ?? []) {
          copyLines(previous, (key, line) => (writers[bucketOf(key, level)] ??= writer()).addLine(line));
        }
        for (const key of groupKeys) {
          const doc = source.get(key);
          if (doc) (writers[bucketOf(key, level)] ??= writer()).add(key, json(doc));
        }
        tables[group] = { level, base: finishAll(writers) };
        continue;
      }
      const byBucket = new Map<number, string[]>();
      for (const key of groupKeys) {
        const b = bucketOf(key, level);
        const list = byBucket.get(b);
        if (list) list.push(key);
        else byBucket.set(b, [key]);
      }
      const base = [...before.base];
      for (const [b, bucketKeys] of byBucket) {
        const w = writer();
        copyLines(before.base[b], (_key, line) => w.addLine(line));
        for (const key of bucketKeys) {
          const doc = source.get(key);
          if (doc) w.add(key, json(doc));
        }
        if (w.docs === 0) {
          w.abandon();
          base[b] = null;
        } else base[b] = finish(w);
      }
      tables[group] = { level, base };
    }
    next = { ...old, ts: ts.toString(), schema, tables, deltas: [], nextFile };
  } else {
    // What changed, as one more delta.
    kind = "delta";
    const w = writer();
    for (const key of dirty) {
      const doc = source.get(key);
      w.add(key, doc ? json(doc) : null);
    }
    next = { ...old, ts: ts.toString(), schema, deltas: [...old.deltas, finish(w)!], nextFile };
  }
  // Recorded in the manifest: a start knows it without parsing the documents.
  next.maxCreationTime = maxCreation;
  return { kind, next, written };
}
