/**
 * HTTP actions run in worker threads (issue 18 item 2; actionHost.ts
 * invokeHttpActionInWorker), off the thread that serves queries and
 * mutations, as Convex runs every action, HTTP actions included, in an
 * isolate of its own. Through a running backend's site port.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { LOCAL_BACKEND_ACTION_WORKERS: "2" } });
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
});

describe("HTTP actions run in worker threads", () => {
  test("a query is answered while an HTTP action computes without yielding", async () => {
    const http = backend.httpClient();
    let settled = false;
    // 8 s of synchronous work: on the serving thread nothing else could be answered meanwhile.
    const running = fetch(`${backend.siteUrl}/spin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ channel: "http-spin", ms: 8_000 }),
    }).finally(() => {
      settled = true;
    });
    // The HTTP action is running (it wrote "started" before its loop) ...
    await waitFor(async () => (await http.query(api.messages.list, { channel: "http-spin" })).length === 1, {
      intervalMs: 20,
      message: "the HTTP action to start",
    });
    // ... and queries and mutations are answered while it still runs.
    for (let i = 0; i < 5; i++) {
      await http.mutation(api.messages.send, { channel: "beside-http-spin", author: "t", body: `m${i}` });
      expect(await http.query(api.messages.list, { channel: "beside-http-spin" })).toHaveLength(i + 1);
    }
    expect(settled).toBe(false);
    const response = await running;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ spun: true });
  }, 60_000);

  test("an HTTP action in a thread sees the caller's identity, and none without a token", async () => {
    const result = (await backend.httpClient().action(api.auth.signIn, {
      provider: "password",
      params: { email: "http-threads@example.com", password: "punchline-42", flow: "signUp" },
    })) as { tokens?: { token: string } | null };
    const token = result.tokens?.token;
    expect(token).toBeTruthy();
    const http = backend.httpClient();
    http.setAuth(token!);
    const identity = (await http.query(api.whoami.identity, {})) as { subject: string };
    const signedIn = await fetch(`${backend.siteUrl}/whoami`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await signedIn.json()).toEqual({ subject: identity.subject });
    const anonymous = await fetch(`${backend.siteUrl}/whoami`);
    expect(await anonymous.json()).toEqual({ subject: null });
  }, 60_000);
});

/**
 * An HTTP action has an action's time limit (userTime.ts; Convex: crates/isolate's action
 * environment), and past it the client gets Convex's answer to a failed HTTP action
 * (crates/application/src/redaction.rs): 500, JSON `{code: "[Request ID: …] Server Error: …", trace}`.
 */
describe("an HTTP action's time limit (2 s here through the knob, one thread)", () => {
  let small: Backend;
  beforeAll(async () => {
    small = await startBackend({ env: { LOCAL_BACKEND_ACTION_WORKERS: "1", ACTION_USER_TIMEOUT_SECONDS: "2" } });
  }, 120_000);
  afterAll(async () => {
    await small?.dispose();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${small.siteUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const TIMED_OUT = "Function execution timed out (maximum duration: 2s)";

  test("one that spins past it is answered 500 as Convex answers, and its thread is freed", async () => {
    const started = Date.now();
    const response = await post("/spin", { channel: "http-timeout", ms: 30_000 });
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as { code: string; trace: string };
    expect(body.code).toMatch(/^\[Request ID: [0-9a-f]{16}\] Server Error: /);
    expect(body.code.replace(/^\[Request ID: [0-9a-f]{16}\] Server Error: /, "")).toBe(TIMED_OUT);
    expect(body.trace).toBe(TIMED_OUT);
    // Answered at its limit, not when the spin (30 s) would have ended; the next request runs in a fresh thread.
    const hello = await fetch(`${small.siteUrl}/hello?name=next`);
    expect(await hello.json()).toEqual({ hello: "next" });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(small.output).toMatch(/\[Request ID: [0-9a-f]{16}\] HTTP action failed: UserTimeoutError/);
  }, 60_000);

  test("one that waits past it writes nothing afterwards", async () => {
    const response = await post("/late-write", { channel: "http-late", ms: 4_000 });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { code: string }).code).toContain(TIMED_OUT);
    // Past the moment its code would have woken up and written:
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await small.httpClient().query(api.messages.list, { channel: "http-late" })).toEqual([]);
  }, 60_000);

  test("one that throws is answered 500 with the error, its stack and a ConvexError's data", async () => {
    const thrown = await fetch(`${small.siteUrl}/throw`);
    expect(thrown.status).toBe(500);
    const body = (await thrown.json()) as { code: string; trace: string };
    expect(body.code).toMatch(/^\[Request ID: [0-9a-f]{16}\] Server Error: Uncaught Error: boom in http$/);
    expect(body.trace).toMatch(/^Uncaught Error: boom in http\n\s+at /);
    const withData = await fetch(`${small.siteUrl}/throw?data=1`);
    expect(withData.status).toBe(500);
    expect(await withData.json()).toMatchObject({ data: { code: "RATE_LIMITED" } });
  }, 30_000);
});
