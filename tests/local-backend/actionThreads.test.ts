/**
 * Actions run in worker threads (issue 18 item 2; local-backend/src/runtime/actions/actionPool.ts),
 * off the thread that serves queries and mutations, as Convex runs each action
 * in an isolate of its own. Through a running backend and the official clients.
 */
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { LOCAL_BACKEND_ACTION_WORKERS: "2" } });
  await backend.cli(["env", "set", "ACTION_THREADS_MARKER", "deployment value"]);
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
});

async function signUp(email: string): Promise<string> {
  const result = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "punchline-42", flow: "signUp" },
  })) as { tokens?: { token: string } | null };
  if (!result.tokens?.token) throw new Error("no token");
  return result.tokens.token;
}

describe("actions run in worker threads", () => {
  test("a query is answered while an action computes without yielding", async () => {
    const http = backend.httpClient();
    let settled = false;
    // 8 s of synchronous work: on the serving thread nothing else could be answered meanwhile.
    const running = http.action(api.actionThreads.spin, { channel: "spin", ms: 8_000 }).finally(() => {
      settled = true;
    });
    // The action is running (it wrote "started" before its loop) ...
    await waitFor(async () => (await http.query(api.messages.list, { channel: "spin" })).length === 1, {
      intervalMs: 20,
      message: "the action to start",
    });
    // ... and queries and mutations are answered while it still runs.
    for (let i = 0; i < 5; i++) {
      await http.mutation(api.messages.send, { channel: "beside-spin", author: "t", body: `m${i}` });
      expect(await http.query(api.messages.list, { channel: "beside-spin" })).toHaveLength(i + 1);
    }
    expect(settled).toBe(false);
    const result = await running;
    expect(result.threadId).toBeGreaterThan(0);
  }, 60_000);

  test("runQuery, runMutation, runAction, scheduler, storage, auth, errors, logs and env work from the thread", async () => {
    const token = await signUp("threads@example.com");
    const http = backend.httpClient();
    http.setAuth(token);
    const identity = (await http.query(api.whoami.identity, {})) as { subject: string };
    // Over HTTP, to see the log lines the client gets.
    const response = await fetch(`${backend.url}/api/action`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ path: "actionThreads:roundTrip", args: { channel: "rt" }, format: "json" }),
    });
    const body = (await response.json()) as { status: string; value: any; logLines: string[] };
    expect(body.status).toBe("success");
    const value = body.value;
    expect(value.threadId).toBeGreaterThan(0);
    expect(value.subject).toBe(identity.subject);
    expect(value.bodies).toEqual(["hello"]);
    expect(value.caught).toEqual({
      data: {
        code: "CHECK_IN_TOO_FAR",
        message: "You need to be at the venue to check in",
        extra: { reason: "from an action", distanceMeters: 1234.5, retry: false, tags: ["a", "b"], none: null },
      },
    });
    expect(value.plain).toMatch(/boom/);
    expect(value.file).toEqual({ text: "file bytes", type: "text/plain" });
    expect(value.urlOk).toBe(true);
    // A nested action runs in a thread too, with the caller's identity.
    expect(value.inner.threadId).toBeGreaterThan(0);
    expect(value.inner.subject).toBe(identity.subject);
    expect(value.env).toBe("deployment value");
    expect(body.logLines).toEqual(["[LOG] 'round trip on' 'rt' { nested: { n: 1 } }", "[WARN] 'careful'"]);
    // The scheduled mutation ran.
    await waitFor(async () => (await http.query(api.messages.list, { channel: "rt" })).length === 2, {
      message: "the scheduled mutation",
    });
    expect(await http.query(api.messages.scheduledState, { id: value.jobId })).toBe("success");
  }, 60_000);

  test("a ConvexError thrown in the thread reaches the client with its data", async () => {
    const client = backend.client();
    const error = await client.action(api.messages.failInAction, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as ConvexError<any>).data).toEqual({
      code: "RATE_LIMITED",
      message: "Slow down",
      extra: { retryAfterMs: 500 },
    });
  }, 30_000);

  test("a crash of a worker thread fails only the action it ran; the backend carries on", async () => {
    const client = backend.client();
    // An action in flight in the other thread while one crashes.
    const beside = client.action(api.sync.wait, { ms: 1_500 });
    await expect(client.action(api.actionThreads.crash, {})).rejects.toThrow(/worker thread stopped/);
    expect(await beside).toBeNull();
    // Later actions run (in a new thread), queries and mutations too.
    const after = await client.action(api.actionThreads.spin, { channel: "after-crash", ms: 10 });
    expect(after.threadId).toBeGreaterThan(0);
    expect(await client.query(api.messages.list, { channel: "after-crash" })).toHaveLength(1);
    expect(backend.output).toMatch(/action worker thread exited \(code 3\)/);
  }, 60_000);
});

describe("one thread, a 2 s action time limit, a secret in the shell", () => {
  let small: Backend;
  beforeAll(async () => {
    small = await startBackend({
      env: {
        LOCAL_BACKEND_ACTION_WORKERS: "1",
        ACTION_USER_TIMEOUT_SECONDS: "2",
        SHELL_SECRET_TOKEN: "from the shell",
      },
    });
  }, 60_000);
  afterAll(async () => {
    await small?.stop();
  });

  test("an action does not see the environment of the shell that started the backend", async () => {
    expect(await small.client().action(api.actionThreads.shellEnv, { name: "SHELL_SECRET_TOKEN" })).toBeNull();
  }, 30_000);

  test("an action that spins past its time limit does not hold the thread for the next ones", async () => {
    const client = small.client();
    // Spins for 30 s of wall time without yielding; its limit is 2 s. Another action shares its one thread.
    const spinner = client.action(api.actionThreads.spin, { channel: "spinner", ms: 30_000 });
    await waitFor(async () => (await client.query(api.messages.list, { channel: "spinner" })).length === 1);
    const beside = client.action(api.sync.wait, { ms: 100 }).then(
      () => "done",
      (error: Error) => error.message,
    );
    await expect(spinner).rejects.toThrow(/timed out/);
    // The thread ends with the spinner: the action beside it fails at once instead of waiting 30 s.
    expect(await beside).toMatch(/worker thread stopped/);
    // The next action runs in a fresh thread, long before the spinner would have ended.
    const started = Date.now();
    const next = await client.action(api.actionThreads.spin, { channel: "next", ms: 10 });
    expect(next.threadId).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 90_000);
});
