import { ConvexError } from "convex/values";
import { describe, expect, it } from "vitest";
import type { QueuedSet } from "@/lib/offline/store";
import { flushOutbox, OUTBOX_RETRY_MS } from "./flushOutbox";

const entry = (key: string): QueuedSet => ({
  clientKey: key,
  userId: "u1",
  queuedAt: 0,
  label: `set ${key}`,
  set: { minutes: 5, performedAt: 0, tags: [] },
});

async function run(errors: Record<string, unknown>) {
  const sent: string[] = [];
  const removed: string[] = [];
  const refused: string[] = [];
  const result = await flushOutbox(
    [entry("a"), entry("b"), entry("c")],
    async (e) => {
      sent.push(e.clientKey);
      if (e.clientKey in errors) throw errors[e.clientKey];
    },
    async (e) => {
      removed.push(e.clientKey);
    },
    (e, message) => refused.push(`${e.clientKey}: ${message}`),
  );
  return { result, sent, removed, refused };
}

describe("flushOutbox", () => {
  it("sends every set oldest first and removes each once sent", async () => {
    const { result, sent, removed } = await run({});
    expect(result).toEqual({ kind: "done" });
    expect(sent).toEqual(["a", "b", "c"]);
    expect(removed).toEqual(["a", "b", "c"]);
  });

  it("keeps a rate-limited set and the ones after it, and asks to retry after the server's wait", async () => {
    const limited = new ConvexError({ code: "RATE_LIMITED", message: "Too many", retryAfterMs: 12_000 });
    const { result, sent, removed, refused } = await run({ b: limited });
    expect(result).toEqual({ kind: "retry", afterMs: 12_000 });
    expect(sent).toEqual(["a", "b"]);
    expect(removed).toEqual(["a"]);
    expect(refused).toEqual([]);
  });

  it("retries after a wait when the backend cannot be reached or the session is not back yet", async () => {
    expect((await run({ a: new Error("socket closed") })).result).toEqual({ kind: "retry", afterMs: OUTBOX_RETRY_MS });
    const signedOut = await run({ a: new ConvexError({ code: "NOT_SIGNED_IN", message: "Sign in" }) });
    expect(signedOut.result).toEqual({ kind: "retry", afterMs: OUTBOX_RETRY_MS });
    expect(signedOut.removed).toEqual([]);
  });

  it("drops a set the server refuses for good, says why, and goes on with the rest", async () => {
    const bad = new ConvexError({ code: "INVALID_INPUT", message: "Minutes must be from 1 to 600" });
    const { result, removed, refused } = await run({ b: bad });
    expect(result).toEqual({ kind: "done" });
    expect(removed).toEqual(["a", "b", "c"]);
    expect(refused).toEqual(["b: Minutes must be from 1 to 600"]);
  });
});
