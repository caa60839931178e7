import { appError, ErrorCode } from "../errors";

/**
 * A page cursor that is not ours (another format, another query, tampered):
 * an INVALID_INPUT error that also names the failure the way Convex's
 * `usePaginatedQuery` recognises (`InvalidCursor`), so a client holding an old
 * cursor starts the list again.
 */
export function invalidCursor(message: string): never {
  throw appError(ErrorCode.INVALID_INPUT, message, { paginationError: "InvalidCursor" });
}

/** The JSON object a cursor of ours holds, or {@link invalidCursor}. */
export function cursorObject(cursor: string, message: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    return invalidCursor(message);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return invalidCursor(message);
  return parsed as Record<string, unknown>;
}
