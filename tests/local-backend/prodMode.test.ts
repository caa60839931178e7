import { ConvexClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";

/**
 * Issue 14 item 11: `start --prod` reports errors to clients as a Convex
 * production deployment does (`[Request ID: …] Server Error`), ConvexError
 * data still passes; development mode shows the message.
 */
let dev: Backend;
let prod: Backend;

beforeAll(async () => {
  [dev, prod] = await Promise.all([
    startBackend(),
    startBackend({ extraArgs: ["--prod"], seedFlag: "--seed", watch: true }),
  ]);
});

afterAll(async () => {
  await Promise.all([dev?.dispose(), prod?.dispose()]);
});

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

describe("production mode", () => {
  test("a thrown Error's message is hidden in prod (WebSocket and HTTP clients) and shown in dev", async () => {
    for (const error of [
      await failure(() => prod.client().mutation(api.messages.crash, {})),
      await failure(() => prod.httpClient().mutation(api.messages.crash, {})),
    ]) {
      expect(error.message).toMatch(/\[Request ID: [0-9a-f]{16}\] Server Error/);
      expect(error.message).not.toContain("boom");
    }
    expect(prod.output).toMatch(/\[Request ID: [0-9a-f]{16}\] Uncaught Error: boom/);
    for (const error of [
      await failure(() => dev.client().mutation(api.messages.crash, {})),
      await failure(() => dev.httpClient().mutation(api.messages.crash, {})),
    ]) {
      expect(error.message).toContain("boom");
      expect(error.message).not.toContain("Server Error");
    }
  });

  test("function logs reach clients in dev only (HTTP and WebSocket); prod prints them on its own output", async () => {
    const logged = "[LOG] 'crashing with a detail'";
    for (const [backend, expected] of [
      [prod, []],
      [dev, [logged]],
    ] as const) {
      const response = await fetch(`${backend.url}/api/mutation`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ path: "messages:crashLoudly", args: {}, format: "json" }),
      });
      expect(((await response.json()) as { logLines: string[] }).logLines).toEqual(expected);
      const lines: string[] = [];
      const capture = (...args: unknown[]) => lines.push(args.map(String).join(" "));
      const client = new ConvexClient(backend.url, {
        unsavedChangesWarning: false,
        logger: { log: capture, warn: capture, error: capture, logVerbose: () => {} },
      });
      try {
        await failure(() => client.mutation(api.messages.crashLoudly, {}));
      } finally {
        await client.close();
      }
      expect(lines.some((line) => line.includes("crashing with a detail"))).toBe(expected.length > 0);
    }
    expect(prod.output).toContain("crashing with a detail");
  });

  test("a ConvexError's data passes in both modes (mutation, action, subscription)", async () => {
    for (const backend of [prod, dev]) {
      const mutationError = await failure(() => backend.client().mutation(api.messages.fail, { reason: "far" }));
      expect(mutationError).toBeInstanceOf(ConvexError);
      expect((mutationError as ConvexError<any>).data).toMatchObject({
        code: "CHECK_IN_TOO_FAR",
        extra: { reason: "far" },
      });
      const actionError = await failure(() => backend.httpClient().action(api.messages.failInAction, {}));
      expect(actionError).toBeInstanceOf(ConvexError);
      expect((actionError as ConvexError<any>).data).toMatchObject({ code: "RATE_LIMITED" });
      const client = backend.client();
      const queryError = await new Promise<Error>((resolve) => {
        client.onUpdate(api.messages.failingQuery, { reason: "mine" }, () => {}, resolve);
      });
      expect(queryError).toBeInstanceOf(ConvexError);
      expect((queryError as ConvexError<any>).data).toMatchObject({ code: "FORBIDDEN", extra: { reason: "mine" } });
    }
  });

  test("an HTTP action's error is answered 500 as Convex does: hidden in prod, shown in dev, data in both", async () => {
    const prodAnswer = await fetch(`${prod.siteUrl}/throw`);
    expect(prodAnswer.status).toBe(500);
    const hidden = (await prodAnswer.json()) as Record<string, unknown>;
    expect(hidden).toEqual({ code: expect.stringMatching(/^\[Request ID: [0-9a-f]{16}\] Server Error$/) });
    const requestId = /\[Request ID: ([0-9a-f]{16})\]/.exec(hidden.code as string)![1];
    // The log line comes from the HTTP actions' thread and may reach the output after the answer.
    const logLine = `[Request ID: ${requestId}] HTTP action failed: Error: boom in http`;
    await waitFor(() => prod.output.includes(logLine), { message: "the HTTP action's error in the log" });
    expect(prod.output).toContain(logLine);
    const shown = (await (await fetch(`${dev.siteUrl}/throw`)).json()) as Record<string, unknown>;
    expect(shown.code).toMatch(/^\[Request ID: [0-9a-f]{16}\] Server Error: Uncaught Error: boom in http$/);
    for (const backend of [prod, dev]) {
      const withData = await fetch(`${backend.siteUrl}/throw?data=1`);
      expect(withData.status).toBe(500);
      expect(await withData.json()).toMatchObject({ data: { code: "RATE_LIMITED" } });
    }
  });

  test("prod neither seeds (even with --seed) nor watches the functions folder", async () => {
    expect(prod.output).toContain("--prod: not seeding");
    expect(prod.output).not.toContain("running seed:run");
    expect(prod.output).toContain("no file watching");
  });
});
