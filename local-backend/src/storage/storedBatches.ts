/**
 * The stored documents a start reads (store.ts `load`), in batches: a segment
 * chunk's documents as positions in the chunk's text, the others parsed.
 */
import path from "node:path";
import type { JsonDoc } from "./dataLog.js";
import { eachSegmentLine, maxCreationIn, type SegmentInfo, segmentChunks } from "./segments.js";

/**
 * Stored documents read together: the document keyed `keys[i]` is `values[i]`
 * (parsed), or, read from a segment, the JSON text `text.slice(starts[i],
 * ends[i])`. A segment's batch is one chunk of it (`text`) and where each
 * document is in it, not a string per document: a start reads hundreds of
 * thousands, and strings kept that long are what the garbage collector copies.
 */
export type DocBatch =
  | { keys: string[]; values: Record<string, unknown>[] }
  | { keys: string[]; text: string; starts: number[]; ends: number[] };

/** A batch's documents one at a time (a segment's as their JSON text). */
export function* batchDocs(batch: DocBatch): Generator<[string, string | Record<string, unknown>]> {
  const { keys } = batch;
  for (let i = 0; i < keys.length; i++) {
    yield [keys[i], "text" in batch ? batch.text.slice(batch.starts[i], batch.ends[i]) : batch.values[i]];
  }
}

/** Documents per batch of parsed documents (an old snapshot's, the deltas' and the log's). */
const BATCH_DOCS = 4096;

/** Parsed documents in batches, deleted ones (null) left out. */
export function* parsedBatches(docs: Iterable<[string, JsonDoc]>): Generator<DocBatch> {
  let batch = { keys: [] as string[], values: [] as Record<string, unknown>[] };
  for (const [key, doc] of docs) {
    if (!doc) continue;
    batch.keys.push(key);
    batch.values.push(doc);
    if (batch.keys.length === BATCH_DOCS) {
      yield batch;
      batch = { keys: [], values: [] };
    }
  }
  yield batch;
}

/**
 * The base segments' documents a chunk at a time, those `overlay` holds left
 * out (the deltas and the log win). Without `recorded` (a manifest from before
 * it recorded the largest `_creationTime`), that is found in the texts and
 * given to `found` once all are read.
 */
export function* segmentBatches(
  dir: string,
  segments: readonly (SegmentInfo | null)[],
  overlay: ReadonlyMap<string, unknown>,
  recorded: number | undefined,
  found: (maxCreationTime: number) => void,
): Generator<DocBatch> {
  let max = 0;
  for (const segment of segments) {
    if (!segment) continue;
    for (const text of segmentChunks(path.join(dir, segment.file))) {
      const keys: string[] = [];
      const starts: number[] = [];
      const ends: number[] = [];
      eachSegmentLine(text, (key, start, end) => {
        if (overlay.has(key)) return;
        if (recorded === undefined) max = Math.max(max, maxCreationIn(text.slice(start, end)));
        keys.push(key);
        starts.push(start);
        ends.push(end);
      });
      yield { keys, text, starts, ends };
    }
  }
  if (recorded === undefined) found(max);
}
