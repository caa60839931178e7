import { ConvexError } from "convex/values";
import { ErrorCode } from "@convex/errors";

function errorData(err: unknown): Record<string, unknown> | null {
  if (err instanceof ConvexError && typeof err.data === "object" && err.data !== null) {
    return err.data as Record<string, unknown>;
  }
  return null;
}

/** The message a user should see for a failed call: the server's ConvexError
 * message when there is one, otherwise `fallback` (raw server errors are
 * redacted in production and say nothing useful to a comedian). */
export function errorMessage(err: unknown, fallback: string): string {
  const data = errorData(err);
  if (data && typeof data.message === "string" && data.message.length > 0) return data.message;
  if (err instanceof ConvexError && typeof err.data === "string" && err.data.length > 0) return err.data;
  return fallback;
}

const knownCodes: ReadonlySet<string> = new Set(Object.values(ErrorCode));

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && knownCodes.has(code);
}

/** The `code` of a ConvexError thrown with `appError` (see convex/errors.ts), or
 * null. Typed as {@link ErrorCode}, so a comparison with a code that does not
 * exist fails to compile. */
export function errorCode(err: unknown): ErrorCode | null {
  const code = errorData(err)?.code;
  return isErrorCode(code) ? code : null;
}

/** A numeric or string field carried beside the message (for example the
 * distance of a failed check-in), or undefined. */
export function errorField(err: unknown, field: string): string | number | boolean | null | undefined {
  const data = errorData(err);
  const value = data?.[field];
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
    return value as string | number | boolean | null;
  }
  return undefined;
}
