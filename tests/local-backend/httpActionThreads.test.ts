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
