/**
 * Pagination cursors that belong to their query, as on Convex: a cursor
 * carries a fingerprint of the query it came from (table, index, range,
 * order, filters, as Convex's `Query::fingerprint` in
 * crates/common/src/query.rs hashes the whole query), and a page asked for
 * with a cursor from another query or index is refused with Convex's
 * `InvalidCursor` error, a ConvexError whose data
 * (`{ isConvexSystemError: true, paginationError: "InvalidCursor" }`) tells
 * `usePaginatedQuery` to start over (crates/database/src/query/mod.rs).
 *
 * A cursor is `<fingerprint>:<convex-test's cursor>`; the fingerprint is
 * added to every cursor a page returns and checked and removed on the way in,
 * so indexedDatabase.ts keeps convex-test's cursors.
 */
import { createHash } from "node:crypto";
import { ConvexError } from "convex/values";

export const INVALID_CURSOR_MESSAGE =
  "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.";

function invalidCursor(message = INVALID_CURSOR_MESSAGE): Error {
  const error = new ConvexError({ isConvexSystemError: true, paginationError: "InvalidCursor" });
  error.message = message;
  return error;
}

/** The fingerprint of a query as the `1.0/queryPage` syscall receives it (JSON). */
export function queryFingerprint(query: unknown): string {
  return createHash("sha256").update(JSON.stringify(query)).digest("base64url").slice(0, 22);
}

/** A cursor of convex-test's, tagged with its query's fingerprint. */
export function wrapCursor(cursor: string, fingerprint: string): string;
export function wrapCursor(cursor: string | null, fingerprint: string): string | null;
export function wrapCursor(cursor: string | null, fingerprint: string): string | null {
  return cursor === null ? null : `${fingerprint}:${cursor}`;
}

/** convex-test's cursor inside a tagged one; throws InvalidCursor if it is from another query or malformed. */
export function unwrapCursor(cursor: unknown, fingerprint: string): string | null | undefined {
  if (cursor === null || cursor === undefined) return cursor;
  if (typeof cursor !== "string") throw invalidCursor("Failed to parse cursor");
  const colon = cursor.indexOf(":");
  if (colon < 0) throw invalidCursor("Failed to parse cursor");
  if (cursor.slice(0, colon) !== fingerprint) throw invalidCursor();
  return cursor.slice(colon + 1);
}
