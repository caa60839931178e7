import { ConvexError } from "convex/values";
import { expect } from "vitest";
import type { AppErrorData, ErrorCode } from "../errors";

/**
 * Awaits a call that must be refused with an app error (a ConvexError carrying
 * `{ code, message }`, see `appError` in errors.ts): asserts its code and, when
 * given, its message (the spec's exact wording, or a pattern where the wording
 * holds a number). Fails when the call succeeds or throws anything else.
 * Returns the error's data, for extra fields such as `retryAfterMs` or `limit`;
 * with `{ exact: true }` the data must hold nothing but the code and message.
 *
 * Works with convex-test (`t.mutation(...)`, `asUser.query(...)`) and with the
 * real clients (`ConvexHttpClient`, `ConvexClient`) against a running backend.
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
