/**
 * Document ids in Convex's format (convex-backend crates/value/src/id_v6.rs):
 *
 *   base32( VInt(table number) ++ 16 random bytes ++ footer )
 *   footer = fletcher16(everything before it) XOR version 0, little endian
 *
 * in Crockford's lowercase base32 alphabet without padding. User tables are
 * numbered from 10001 (two VInt bytes), so their ids are 32 characters, like
 * the ids Convex hands out. The 128 random bits make an id unguessable: knowing
 * your own ids tells you nothing about anybody else's (Convex Auth's refresh
 * token is two document ids).
 *
 * The table of an id is resolved through the data directory's table numbers
 * (`tables.json`). Ids minted before this format (a decimal counter followed by
 * the table name, convex-test's format) still resolve, so existing data
 * directories keep working; no new id has that shape. The exception is Convex
 * Auth's sessions and refresh tokens (NO_LEGACY_ID_TABLES below).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const INTERNAL_ID_LEN = 16;
/** Convex's bounds: one to five VInt bytes, 16 id bytes, 2 footer bytes. */
const MIN_LEN = encodedLen(1 + INTERNAL_ID_LEN + 2);
const MAX_LEN = encodedLen(5 + INTERNAL_ID_LEN + 2);
export const FIRST_USER_TABLE_NUMBER = 10001;
/** System tables get two-byte numbers too, so every id is 32 characters and starts with a letter. */
const FIRST_SYSTEM_TABLE_NUMBER = 9001;

function encodedLen(bytes: number): number {
  return Math.floor(bytes / 5) * 8 + [0, 2, 4, 5, 7][bytes % 5];
}

function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Character code -> its value in the alphabet, or -1. */
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
/** Decoded bytes of the id being decoded (ids are at most MAX_LEN characters). */
const scratch = new Uint8Array(Math.ceil((MAX_LEN * 5) / 8));

/**
 * Decodes `text` into `scratch`: its byte count, or -1 if it is not the
 * canonical spelling of any bytes (a character outside the alphabet, a length
 * no byte count encodes to, or non-zero padding bits), so that decoding is
 * one-to-one without encoding the bytes again.
 */
function base32Decode(text: string): number {
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? DECODE[code] : -1;
    if (value < 0) return -1;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      scratch[n++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0 || encodedLen(n) !== text.length) return -1;
  return n;
}

function fletcher16(bytes: Uint8Array): number {
  let c0 = 0;
  let c1 = 0;
  for (let i = 0; i < bytes.length; i++) {
    c0 = (c0 + bytes[i]) & 0xff;
    c1 = (c1 + c0) & 0xff;
  }
  return (c1 << 8) | c0;
}

function vintEncode(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    if (n < 0x80) {
      out.push(n);
      return out;
    }
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
}

/** Convex's id string for a table number and 16 internal id bytes. */
export function encodeId(tableNumber: number, internalId: Uint8Array): string {
  if (internalId.length !== INTERNAL_ID_LEN) throw new Error("internal id must be 16 bytes");
  const head = [...vintEncode(tableNumber), ...internalId];
  const footer = fletcher16(Uint8Array.from(head));
  return base32Encode(Uint8Array.from([...head, footer & 0xff, footer >> 8]));
}

/** The table number of a Convex-format id, or null if `id` is not one (as Convex decodes: canonical only). */
export function decodeId(id: string): { tableNumber: number; internalId: Uint8Array } | null {
  if (id.length < MIN_LEN || id.length > MAX_LEN) return null;
  const length = base32Decode(id);
  if (length < 0) return null;
  const bytes = scratch;
  let tableNumber = 0;
  let pos = 0;
  for (;;) {
    if (pos >= 5 || pos >= length) return null;
    const byte = bytes[pos];
    tableNumber += (byte & 0x7f) * 2 ** (7 * pos);
    pos++;
    if (byte < 0x80) break;
  }
  if (tableNumber === 0 || length !== pos + INTERNAL_ID_LEN + 2) return null;
  const footer = bytes[pos + INTERNAL_ID_LEN] | (bytes[pos + INTERNAL_ID_LEN + 1] << 8);
  if (fletcher16(bytes.subarray(0, pos + INTERNAL_ID_LEN)) !== footer) return null;
  // One-to-one: base32Decode accepts only the canonical spelling.
  return { tableNumber, internalId: bytes.slice(pos, pos + INTERNAL_ID_LEN) };
}

/**
 * Tables whose old-format ids are never resolved: Convex Auth's refresh token
 * is `<authRefreshTokens id>|<authSessions id>`, so with counter ids a token
 * minted before the id change could be guessed by counting down. The engine
 * deletes such rows when it opens a data directory or imports a snapshot
 * (their owners sign in again once).
 */
export const NO_LEGACY_ID_TABLES: ReadonlySet<string> = new Set(["authRefreshTokens", "authSessions"]);

/**
 * The table name of an id in convex-test's old format (a counter then the table name).
 * Any id goes through here, a client's argument too: it never adds to {@link legacyNames}.
 */
function legacyTable(id: string): string | null {
  const digits = leadingDigits(id);
  if (digits === 0 || digits === id.length) return null;
  const table = legacySuffix(id, digits, false);
  return NO_LEGACY_ID_TABLES.has(table) ? null : table;
}

/**
 * Table names of old-format ids seen so far in stored data (a start, an
 * imported snapshot). A start reads hundreds of thousands of such ids: the one
 * string per table (found with a length check and endsWith) spares a new string
 * per id, and each lookup keyed by it hashing it again. Only stored ids add
 * names: an id a client sends (a query's `v.id` argument, `db.get`) is looked
 * up among them but never kept, so made-up ids cannot fill the list (every
 * later old-format lookup would scan 64 names) nor keep their strings alive.
 */
const legacyNames: string[] = [];

/** `id.slice(digits)`, the same string for every id of one table; `keep`: a stored id's, remembered. */
function legacySuffix(id: string, digits: number, keep: boolean): string {
  const length = id.length - digits;
  for (const name of legacyNames) if (name.length === length && id.endsWith(name)) return name;
  const name = id.slice(digits);
  if (keep && legacyNames.length < 64) legacyNames.push(name);
  return name;
}

/** How many table names {@link legacyNames} holds (tests). */
export function legacyNameCount(): number {
  return legacyNames.length;
}

function leadingDigits(id: string): number {
  let i = 0;
  while (i < id.length) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}

/** Whether `id` is an old-format id of a table in {@link NO_LEGACY_ID_TABLES} (a row to delete). */
export function isRefusedLegacyId(id: string): boolean {
  const digits = leadingDigits(id);
  return digits > 0 && digits < id.length && NO_LEGACY_ID_TABLES.has(legacySuffix(id, digits, false));
}

/**
 * The data directory's table numbers (`tables.json`): each table gets one the
 * first time a document is written to it, user tables from 10001 (as Convex
 * numbers them) and system tables (`_storage`, `_scheduled_functions`) from 9001.
 * Numbers are never reused or changed; the file is written before any id with
 * a new number can be committed.
 */
export class TableNumbers {
  private readonly file: string | null;
  private byName = new Map<string, number>();
  private byNumber = new Map<number, string>();

  constructor(dir: string | null) {
    this.file = dir === null ? null : path.join(dir, "tables.json");
    if (this.file && fs.existsSync(this.file)) {
      const saved = JSON.parse(fs.readFileSync(this.file, "utf8")) as Record<string, number>;
      for (const [name, number] of Object.entries(saved)) this.set(name, number);
    }
  }

  /** The smallest table number in use (see tableOf). */
  private smallestNumber = Infinity;

  private set(name: string, number: number): void {
    this.byName.set(name, number);
    this.byNumber.set(number, name);
    if (number < this.smallestNumber) this.smallestNumber = number;
  }

  nameOf(number: number): string | undefined {
    return this.byNumber.get(number);
  }

  entries(): Record<string, number> {
    return Object.fromEntries(this.byName);
  }

  /** The table's number, assigned (and saved) on first use. */
  numberFor(name: string): number {
    const known = this.byName.get(name);
    if (known !== undefined) return known;
    const system = name.startsWith("_");
    let next = system ? FIRST_SYSTEM_TABLE_NUMBER : FIRST_USER_TABLE_NUMBER;
    for (const n of this.byNumber.keys()) {
      if (system ? n < FIRST_USER_TABLE_NUMBER : n >= FIRST_USER_TABLE_NUMBER) next = Math.max(next, n + 1);
    }
    this.set(name, next);
    this.save();
    return next;
  }

  /**
   * Adopts another data directory's numbers (an imported snapshot): fails if
   * a name or number already means something else here.
   */
  adopt(numbers: Record<string, number>): void {
    for (const [name, number] of Object.entries(numbers)) {
      if (!Number.isSafeInteger(number) || number <= 0) throw new Error(`Invalid table number ${number} for "${name}"`);
      const mine = this.byName.get(name);
      const owner = this.byNumber.get(number);
      if ((mine !== undefined && mine !== number) || (owner !== undefined && owner !== name)) {
        throw new Error(
          `The snapshot numbers table "${name}" ${number}, but this data directory already uses ` +
            `${mine !== undefined ? `${mine} for "${name}"` : `${number} for "${owner}"`}; import it into a new data directory.`,
        );
      }
    }
    let changed = false;
    for (const [name, number] of Object.entries(numbers)) {
      if (!this.byName.has(name)) {
        this.set(name, number);
        changed = true;
      }
    }
    if (changed) this.save();
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    const fd = fs.openSync(tmp, "w", 0o600);
    fs.writeSync(fd, JSON.stringify(this.entries(), null, 1) + "\n");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.file);
  }

  /** A new random id in `table`. */
  newId(table: string): string {
    // Starts with a letter (a two-byte table number), so it never reads as an old-format id.
    return encodeId(this.numberFor(table), randomBytes(INTERNAL_ID_LEN));
  }

  /** Whether an id with a leading digit is an old-format id (no table is numbered below 128: see tableOf). */
  get leadingDigitIsOld(): boolean {
    return this.smallestNumber >= 128;
  }

  /** The table an id belongs to, or null. */
  tableOf(id: string): string | null {
    if (typeof id !== "string") return null;
    // An id of a table numbered 128 or more starts with a letter (its first VInt byte
    // is 0x80 or more, so its first character is one of the alphabet's last 16): a
    // leading digit is an old-format id, unless some table has a smaller number.
    // Saves decoding every old id twice at start (hundreds of thousands).
    const first = id.charCodeAt(0);
    if (first >= 48 && first <= 57 && this.smallestNumber >= 128) return legacyTable(id);
    const decoded = decodeId(id);
    if (decoded) {
      const name = this.byNumber.get(decoded.tableNumber);
      if (name !== undefined) return name;
    }
    return legacyTable(id);
  }
}

/** The numbers of the data directory the engine of this process serves. */
let current = new TableNumbers(null);

export function setCurrentTableNumbers(tables: TableNumbers): void {
  current = tables;
}

export function currentTableNumbers(): TableNumbers {
  return current;
}

/**
 * A stored document's table as a start reads it: false for an old-format id
 * of a table in {@link NO_LEGACY_ID_TABLES} (isRefusedLegacyId), else
 * tableNameFromId's answer; an old-format id's digits are counted once.
 */
export function storedIdTable(id: string): string | null | false {
  const digits = leadingDigits(id);
  if (digits > 0 && digits < id.length) {
    // Where a leading digit can also begin a new-format id (a table numbered below 128),
    // the rest is that id's own: not a table name to keep among legacyNames.
    const old = current.leadingDigitIsOld;
    const table = old ? legacySuffix(id, digits, true) : id.slice(digits);
    if (NO_LEGACY_ID_TABLES.has(table)) return false;
    if (old) return table;
  }
  return current.tableOf(id);
}

/** The table of a document id (either format), or null. Used by the patched convex-test too. */
export function tableNameFromId(id: string): string | null {
  return current.tableOf(id);
}
