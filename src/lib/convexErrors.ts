import { ConvexError } from "convex/values";

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

/** The `code` of a ConvexError thrown with `appError` (see convex/errors.ts), or null. */
export function errorCode(err: unknown): string | null {
  const data = errorData(err);
  return data && typeof data.code === "string" ? data.code : null;
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
