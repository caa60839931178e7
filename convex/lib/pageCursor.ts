import type { PaginationResult } from "convex/server";
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

/**
 * A page's answer in Convex's protocol. Without `endCursor` the page goes on
 * at `cursor`. With one (a page pinned by the client) it ends exactly there,
 * unless the read bound stopped it first (`stopped`): then the client drops
 * the page and asks for [its cursor, `cursor`] and [`cursor`, `endCursor`]
 * (`pageStatus: "SplitRequired"`). `isDone`: nothing follows the page's end.
 */
export function pageResult<T>(
  page: T[],
  {
    cursor,
    endCursor,
    stopped,
    isDone,
  }: { cursor: string; endCursor: string | null | undefined; stopped: boolean; isDone: boolean },
): PaginationResult<T> {
  if (typeof endCursor !== "string") return { page, isDone, continueCursor: cursor };
  if (stopped)
    return { page, isDone: false, continueCursor: endCursor, pageStatus: "SplitRequired", splitCursor: cursor };
  return { page, isDone, continueCursor: endCursor };
}
