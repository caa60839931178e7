/**
 * Reads a snapshot in the `export` format (one JSON object) a chunk at a time:
 * each document of `tables`, each entry of `files` and each other top-level
 * value is cut out of the bytes and parsed on its own, so what is held is one
 * chunk plus the value being read, never the whole file as one string (V8
 * refuses strings over 512 MiB, and a national data set's snapshot is larger).
 */

/** One piece of a snapshot, in file order. */
export type SnapshotPart =
  | { kind: "tables" }
  | { kind: "top"; key: string; value: unknown }
  | { kind: "doc"; table: string; json: unknown }
  | { kind: "file"; id: string; value: unknown };

/** Bytes of JSON one document may take (a Convex document is at most 1 MiB; escapes can make its JSON longer). */
export const MAX_DOCUMENT_JSON_BYTES = 16 << 20;
/** Bytes of JSON any other single value may take (a stored file's base64, the components' tables). */
export const MAX_VALUE_JSON_BYTES = 256 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The containers walked into: the snapshot object, `tables`, one table's array, `files`. */
type Frame = {
  kind: "root" | "tables" | "table" | "files";
  /** first: just opened; next: after a comma; colon: after a key; value: after the colon; after: after a value. */
  state: "first" | "next" | "colon" | "value" | "after";
  key: string;
  table: string;
};

/** A key or value being cut out (possibly across chunks). */
type Capture = {
  isKey: boolean;
  /** Whether its first byte was seen (a string, a container or a scalar). */
  begun: boolean;
  pieces: Buffer[];
  bytes: number;
  limit: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
  scalar: boolean;
  startOffset: number;
};

/** Figures of a read (the streaming test reads them). */
export type SnapshotReadStats = {
  /** Bytes read. */
  bytes: number;
  /** The most bytes held at once: the chunk being scanned plus the value being cut out of earlier chunks. */
  peakHeldBytes: number;
};

/**
 * The snapshot's parts from its bytes, in file order. Throws on what is not
 * JSON, or not a snapshot, naming the byte where it went wrong.
 */
export async function* snapshotParts(
  chunks: AsyncIterable<Uint8Array>,
  stats: SnapshotReadStats = { bytes: 0, peakHeldBytes: 0 },
): AsyncGenerator<SnapshotPart[]> {
  const scanner = new SnapshotScanner();
  for await (const raw of chunks) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    stats.bytes += chunk.length;
    stats.peakHeldBytes = Math.max(stats.peakHeldBytes, chunk.length + scanner.carriedBytes);
    const parts = scanner.scan(chunk);
    stats.peakHeldBytes = Math.max(stats.peakHeldBytes, chunk.length + scanner.carriedBytes);
    // One chunk's parts at a time (a generator step per document would cost more than its parse).
    if (parts.length > 0) yield parts;
  }
  scanner.finish();
}

class SnapshotScanner {
  private frames: Frame[] = [];
  private capture: Capture | null = null;
  private ended = false;
  /** Bytes scanned before the current chunk (for error positions). */
  private offset = 0;

  /** Bytes of a value held from earlier chunks. */
  get carriedBytes(): number {
    return this.capture?.bytes ?? 0;
  }

  private fail(message: string, at: number): never {
    throw new Error(`The snapshot is not valid JSON: ${message} at byte ${at}`);
  }

  scan(chunk: Buffer): SnapshotPart[] {
    const out: SnapshotPart[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.capture) {
        const end = this.continueCapture(chunk, i);
        if (end < 0) {
          this.carry(chunk, i, chunk.length);
          i = chunk.length;
          break;
        }
        this.endCapture(out, chunk, i, end);
        i = end;
        continue;
      }
      const b = chunk[i];
      if (isSpace(b)) {
        i++;
        continue;
      }
      const at = this.offset + i;
      const frame = this.frames[this.frames.length - 1];
      if (!frame) {
        if (this.ended) this.fail("more after the snapshot's end", at);
        // A snapshot is one JSON object; anything else has no `tables`.
        if (b !== OPEN_OBJECT) throw new Error("Not a snapshot: missing `tables`");
        this.frames.push({ kind: "root", state: "first", key: "", table: "" });
        i++;
        continue;
      }
      const isArray = frame.kind === "table";
      switch (frame.state) {
        case "first":
        case "next":
          if (frame.state === "first" && b === (isArray ? CLOSE_ARRAY : CLOSE_OBJECT)) {
            this.close();
            i++;
          } else if (isArray) {
            frame.state = "after";
            i = this.beginValue(frame, chunk, i, out);
          } else if (b === QUOTE) {
            frame.state = "colon";
            this.startCapture(true, i, MAX_VALUE_JSON_BYTES);
          } else this.fail(`expected a key, found ${JSON.stringify(String.fromCharCode(b))}`, at);
          continue;
        case "colon":
          if (b !== COLON) this.fail(`expected ":", found ${JSON.stringify(String.fromCharCode(b))}`, at);
          frame.state = "value";
          i++;
          continue;
        case "value":
          frame.state = "after";
          i = this.beginValue(frame, chunk, i, out);
          continue;
        case "after":
          if (b === COMMA) frame.state = "next";
          else if (b === (isArray ? CLOSE_ARRAY : CLOSE_OBJECT)) this.close();
          else this.fail(`expected "," or the end, found ${JSON.stringify(String.fromCharCode(b))}`, at);
          i++;
          continue;
      }
    }
    this.offset += chunk.length;
    return out;
  }

  /** At the end of the bytes: the snapshot must have ended. */
  finish(): void {
    if (this.capture?.scalar && this.frames.length > 0) this.fail("unexpected end", this.offset);
    if (!this.ended) {
      if (this.frames.length === 0 && !this.capture) throw new Error("Not a snapshot: missing `tables`");
      this.fail("unexpected end", this.offset);
    }
  }

  private close(): void {
    this.frames.pop();
    if (this.frames.length === 0) this.ended = true;
  }

  /** A value starts at chunk[i]: walks into the containers streamed, else cuts the value out whole. */
  private beginValue(frame: Frame, chunk: Buffer, i: number, out: SnapshotPart[]): number {
    const b = chunk[i];
    if (frame.kind === "root" && (frame.key === "tables" || frame.key === "files") && b === OPEN_OBJECT) {
      if (frame.key === "tables") out.push({ kind: "tables" });
      this.frames.push({ kind: frame.key, state: "first", key: "", table: "" });
      return i + 1;
    }
    if (frame.kind === "root" && frame.key === "tables") throw new Error("Not a snapshot: missing `tables`");
    if (frame.kind === "tables") {
      if (b !== OPEN_ARRAY) throw new Error(`Snapshot table "${frame.key}" must be an array of documents`);
      this.frames.push({ kind: "table", state: "first", key: "", table: frame.key });
      return i + 1;
    }
    this.startCapture(false, i, frame.kind === "table" ? MAX_DOCUMENT_JSON_BYTES : MAX_VALUE_JSON_BYTES);
    return i;
  }

  private startCapture(isKey: boolean, i: number, limit: number): void {
    this.capture = {
      isKey,
      begun: false,
      pieces: [],
      bytes: 0,
      limit,
      depth: 0,
      inString: false,
      escaped: false,
      scalar: false,
      startOffset: this.offset + i,
    };
  }

  /** Scans the captured value from chunk[i]: the index just past its end, or -1 if it goes on. */
  private continueCapture(chunk: Buffer, i: number): number {
    const c = this.capture!;
    let j = i;
    if (!c.begun) {
      const b = chunk[j];
      c.begun = true;
      if (b === QUOTE) c.inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) c.depth = 1;
      else c.scalar = true;
      if (!c.scalar) j++;
      if (c.isKey && !c.inString) this.fail("expected a key", c.startOffset);
    }
    const n = chunk.length;
    if (c.scalar) {
      for (; j < n; j++) {
        const b = chunk[j];
        if (isSpace(b) || b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY) return j;
      }
      return -1;
    }
    let depth = c.depth;
    let inString = c.inString;
    let escaped = c.escaped;
    for (; j < n; j++) {
      const b = chunk[j];
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (depth === 0) {
            c.inString = false;
            return j + 1;
          }
        }
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (--depth === 0) {
          c.depth = 0;
          return j + 1;
        }
      }
    }
    c.depth = depth;
    c.inString = inString;
    c.escaped = escaped;
    return -1;
  }

  /** Keeps chunk[from, to) of the value being cut out (copied: the reader may reuse its buffer). */
  private carry(chunk: Buffer, from: number, to: number): void {
    const c = this.capture!;
    if (to <= from) return;
    c.bytes += to - from;
    if (c.bytes > c.limit) {
      throw new Error(
        `The snapshot holds a value of more than ${c.limit / 2 ** 20} MiB of JSON (from byte ${c.startOffset})`,
      );
    }
    c.pieces.push(Buffer.from(chunk.subarray(from, to)));
  }

  private endCapture(out: SnapshotPart[], chunk: Buffer, from: number, to: number): void {
    const c = this.capture!;
    let text: string;
    if (c.pieces.length === 0) {
      // The whole value is in this chunk (the usual case): no copy.
      if (to - from > c.limit) this.carry(chunk, from, to);
      text = chunk.toString("utf8", from, to);
    } else {
      this.carry(chunk, from, to);
      text = Buffer.concat(c.pieces, c.bytes).toString("utf8");
    }
    this.capture = null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.fail((error as Error).message, c.startOffset);
    }
    const frame = this.frames[this.frames.length - 1];
    if (c.isKey) {
      frame.key = value as string;
      return;
    }
    if (frame.kind === "table") out.push({ kind: "doc", table: frame.table, json: value });
    else if (frame.kind === "files") out.push({ kind: "file", id: frame.key, value });
    else out.push({ kind: "top", key: frame.key, value });
  }
}

/** The parts of a snapshot given as a value (the admin endpoint's and the tests' form). */
export function* snapshotValueParts(given: unknown): Generator<SnapshotPart> {
  const snapshot = given as Record<string, unknown> | null;
  if (!snapshot || typeof snapshot.tables !== "object" || snapshot.tables === null || Array.isArray(snapshot)) {
    throw new Error("Not a snapshot: missing `tables`");
  }
  for (const [key, value] of Object.entries(snapshot)) {
    if (key === "tables") {
      yield { kind: "tables" };
      for (const [table, docs] of Object.entries(value as Record<string, unknown>)) {
        if (!Array.isArray(docs)) throw new Error(`Snapshot table "${table}" must be an array of documents`);
        for (const json of docs) yield { kind: "doc", table, json };
      }
    } else if (key === "files" && value && typeof value === "object") {
      for (const [id, file] of Object.entries(value)) yield { kind: "file", id, value: file };
    } else yield { kind: "top", key, value };
  }
}
