/**
 * A failed function's errorMessage / errorData as Convex reports them, over
 * the sync protocol and HTTP alike, and production mode's redaction.
 */
import { randomBytes } from "node:crypto";
import { convexToJson, type Value } from "convex/values";
import { UserTimeoutError } from "./userTime.js";

let redactErrors = false;

/**
 * Production mode (`start --prod`, issue 14 item 11): clients get
 * `[Request ID: …] Server Error` as a Convex production deployment sends
 * (crates/application/src/redaction.rs); a ConvexError's data still passes.
 * The full error is logged on the backend's console under the same request id.
 */
export function setRedactErrors(on: boolean): void {
  redactErrors = on;
}

/** errorMessage / errorData for a failed function, as Convex reports them. */
export function describeError(error: unknown): { message: string; data?: unknown } {
  const described = describeErrorFully(error);
  if (!redactErrors) return described;
  const requestId = randomBytes(8).toString("hex");
  console.error(`[Request ID: ${requestId}] ${described.message}`);
  const message = `[Request ID: ${requestId}] Server Error`;
  return described.data === undefined ? { message } : { message, data: described.data };
}

/** The unredacted description (the admin CLI's `run`). */
export function describeErrorFully(error: unknown): { message: string; data?: unknown } {
  if (typeof error === "object" && error !== null && Symbol.for("ConvexError") in error) {
    const e = error as { message: string; data?: unknown };
    let data: unknown = null;
    try {
      data = convexToJson((e.data ?? null) as Value);
    } catch {
      data = String(e.data);
    }
    return { message: `Uncaught ConvexError: ${e.message}`, data };
  }
  if (error instanceof UserTimeoutError) return { message: error.message };
  if (error instanceof Error) return { message: `Uncaught ${error.name}: ${error.message}` };
  return { message: `Uncaught ${String(error)}` };
}

/**
 * A failed HTTP action's answer, as Convex sends it (crates/application/src/redaction.rs
 * `to_http_response_parts`): status 500, JSON `{code: "[Request ID: …] Server Error: <message>",
 * trace}` (`data` for a ConvexError); in production mode only `[Request ID: …] Server Error`
 * (and the data), the full error in the backend's log under the same request id.
 */
export function httpActionErrorBody(error: unknown): { requestId: string; body: Record<string, unknown> } {
  const requestId = randomBytes(8).toString("hex");
  const { message, data } = describeErrorFully(error);
  const frames = error instanceof Error && !(error instanceof UserTimeoutError) ? stackFrames(error) : "";
  const body: Record<string, unknown> = redactErrors
    ? { code: `[Request ID: ${requestId}] Server Error` }
    : { code: `[Request ID: ${requestId}] Server Error: ${message}`, trace: `${message}${frames}` };
  if (data !== undefined) body.data = typeof data === "string" ? parsedData(data) : data;
  return { requestId, body };
}

/** A ConvexError's data as an HTTP action leaves it: JSON text (convex's `invokeFunction` serializes it). */
function parsedData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The "    at …" lines of an error's stack, each after a newline. */
function stackFrames(error: Error): string {
  const lines = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  return lines.map((line) => `\n${line}`).join("");
}
