import { ConvexError } from "convex/values";
import { expect } from "vitest";
import type { AppErrorData, ErrorCode } from "../errors";

/**
 * Awaits a call that must be refused with an app error (`appError`, errors.ts): asserts its code and, when given, its
 * message (exact, or a pattern where it holds a number); `{ exact: true }`: the data holds only code and message.
 * Returns the error's data (`retryAfterMs`, `limit`). Works with convex-test and the real clients alike.
 */
export async function expectAppError(
  promise: Promise<unknown>,
  code: ErrorCode,
  message?: string | RegExp,
  options: { exact?: boolean } = {},
): Promise<AppErrorData> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(ConvexError);
    const data = (error as ConvexError<AppErrorData>).data;
    expect(data?.code, JSON.stringify(data ?? String(error))).toBe(code);
    if (typeof message === "string") expect(data.message).toBe(message);
    else if (message) expect(data.message).toMatch(message);
    if (options.exact) expect(Object.keys(data).sort()).toEqual(["code", "message"]);
    return data;
  }
  throw new Error(`expected a ${code} error, but the call was accepted: ${JSON.stringify(value)?.slice(0, 300)}`);
}
