/**
 * Compaction's segment writing (the manifest swap and the log are store.ts's):
 * what changed since the last compaction as one more delta, the deltas merged
 * into the base buckets they touch, or (the first compaction, a migration, a
 * level change) everything. See segments.ts for the format.
 */
import path from "node:path";
import { FILE_MODE } from "./dataDir.js";
import type { JsonDoc } from "./dataLog.js";
import {
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
  /** Every committed document (a full rewrite: the first compaction, a migration, a new level). */
  all(): Iterable<[string, JsonDoc]>;
  /** How many committed documents there are. */
  count(): number;
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
 * compaction, `deltaKeys` those the old manifest's deltas hold.
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
}): { kind: CompactionStats["kind"]; next: Manifest; written: SegmentInfo[] } {
  const { dir, old, source, dirty, deltaKeys, ts, schema, previousMaxCreation } = args;
  const changed = dirty.size;
  let nextFile = old?.nextFile ?? 1;
  const written: SegmentInfo[] = [];
  const writer = () => new SegmentWriter(dir, `${nextFile++}.seg`, FILE_MODE);
  const finish = (w: SegmentWriter): SegmentInfo | null => {
    const info = w.finish();
    written.push(info);
    return info;
  };
  let kind: CompactionStats["kind"];
  let next: Manifest;
  const total = source.count();
  const level = levelFor(total);
  let maxCreation = old ? previousMaxCreation : 0;
  const json = (doc: Record<string, unknown>) => {
    const created = doc._creationTime;
    if (typeof created === "number" && created > maxCreation) maxCreation = created;
    return JSON.stringify(doc);
  };
  if (!old || level > old.level) {
    // Everything, from memory, into 2^level buckets.
    kind = "full";
    const writers: (SegmentWriter | null)[] = new Array(2 ** level).fill(null);
    for (const [key, doc] of source.all()) {
      if (!doc) continue;
      const b = bucketOf(key, level);
      (writers[b] ??= writer()).add(key, json(doc));
    }
    next = {
      format: MANIFEST_FORMAT,
      version: 1,
      ts: ts.toString(),
      schema,
      level,
      base: writers.map((w) => (w ? finish(w) : null)),
      deltas: [],
      nextFile,
    };
  } else if (changed === 0) {
    kind = "none";
    next = { ...old, ts: ts.toString(), schema };
  } else if (
    old.deltas.length >= MAX_DELTAS ||
    docsIn(old.deltas) + changed > Math.max(SEGMENT_DOCS, docsIn(old.base) / 4)
  ) {
    // The deltas and the changes into the base: only the buckets they touch are rewritten.
    kind = "merge";
    const keys = new Set<string>(deltaKeys);
    for (const key of dirty) keys.add(key);
    const byBucket = new Map<number, string[]>();
    for (const key of keys) {
      const b = bucketOf(key, old.level);
      const list = byBucket.get(b);
      if (list) list.push(key);
      else byBucket.set(b, [key]);
    }
    const base = [...old.base];
    for (const [b, bucketKeys] of byBucket) {
      const w = writer();
      const previous = old.base[b];
      if (previous) {
        for (const line of segmentLines(path.join(dir, previous.file))) {
          if (!keys.has(line.slice(0, line.indexOf("\t")))) w.addLine(line);
        }
      }
      for (const key of bucketKeys) {
        const doc = source.get(key);
        if (doc) w.add(key, json(doc));
      }
      if (w.docs === 0) {
        w.abandon();
        base[b] = null;
      } else base[b] = finish(w);
    }
    next = { ...old, ts: ts.toString(), schema, base, deltas: [], nextFile };
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
