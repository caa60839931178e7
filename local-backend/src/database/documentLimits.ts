/**
 * Convex's limits on one stored document, checked on every write of a user
 * table (insert, patch, replace), with Convex's error texts:
 *
 * - size at most 1 MiB (`MAX_USER_SIZE`, crates/common/src/document.rs), as
 *   convex's `getDocumentSize` measures it (the Rust `Size` formula);
 * - nesting at most 16 levels (`MAX_DOCUMENT_NESTING`; a top-level field
 *   holding a number is 1 level, an array of numbers in it 2);
 * - arrays at most 8,192 elements (crates/value/src/array.rs), objects at most
 *   1,024 fields (crates/value/src/object.rs);
 * - top-level field names starting with `_` only for the system fields.
 *
 * Field names with `$`, non-ASCII or control characters, and names over 1,024
 * characters are already refused by the `convex` package's `convexToJson`
 * inside the function, as on Convex.
 */
import { getDocumentSize, type Value } from "convex/values";

export const MAX_USER_SIZE = 1 << 20;
export const MAX_DOCUMENT_NESTING = 16;
export const MAX_ARRAY_LEN = 8192;
export const MAX_OBJECT_FIELDS = 1024;

/** Bytes as Rust's humansize (BINARY) prints them: "1 MiB", "1.43 MiB", "512 B". */
export function formatBinarySize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : value.toFixed(2).replace(/\.?0+$/, "");
  return `${text} ${units[unit]}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (value instanceof ArrayBuffer) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The nesting of a value (0 for a primitive), checking array and object lengths on the way. */
function nesting(value: unknown): number {
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_LEN) {
      throw new Error(`Array length is too long (${value.length} > maximum length ${MAX_ARRAY_LEN})`);
    }
    let deepest = 0;
    for (const item of value) deepest = Math.max(deepest, nesting(item));
    return deepest + 1;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > MAX_OBJECT_FIELDS) {
      throw new Error(`Object has too many fields (${keys.length} > maximum number ${MAX_OBJECT_FIELDS})`);
    }
    let deepest = 0;
    for (const key of keys) if (value[key] !== undefined) deepest = Math.max(deepest, nesting(value[key]));
    return deepest + 1;
  }
  return 0;
}

/** Throws Convex's error if a user document (with or without system fields) breaks a limit. */
export function checkUserDocument(doc: Record<string, unknown>): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith("_") && key !== "_id" && key !== "_creationTime") {
      throw new Error(`Field '${key}' starts with an underscore, which is only allowed for system fields like '_id'`);
    }
  }
  const depth = nesting(doc);
  if (depth > MAX_DOCUMENT_NESTING) {
    throw new Error(`Document is too nested (nested ${depth} levels deep > maximum nesting ${MAX_DOCUMENT_NESTING})`);
  }
  const size = getDocumentSize(doc as Record<string, Value>);
  if (size > MAX_USER_SIZE) {
    throw new Error(`Value is too large (${formatBinarySize(size)} > maximum size ${formatBinarySize(MAX_USER_SIZE)})`);
  }
}
