import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

describe("the HTTP API of ConvexHttpClient", () => {
  test("query, mutation and action", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.messages.list, { channel: "http" })).toEqual([]);
    const id = await http.mutation(api.messages.send, { channel: "http", author: "h", body: "one" });
    expect(typeof id).toBe("string");
    const list = await http.query(api.messages.list, { channel: "http" });
    expect(list).toEqual([{ _id: id, _creationTime: expect.any(Number), channel: "http", author: "h", body: "one" }]);
    const result = await http.action(api.messages.sendViaAction, { channel: "http", author: "a", body: "two" });
    expect(result.count).toBe(2);
    expect((await http.query(api.messages.list, { channel: "http" })).map((m) => m.body)).toEqual(["one", "two"]);
  });

  test("values that JSON cannot carry survive the trip", async () => {
    const http = backend.httpClient();
    expect(
      await http.mutation(api.messages.strict, { count: 1.25, kind: "set", tags: ["é", "🎤"], when: 2n ** 62n }),
    ).toEqual({
      count: 2.5,
      kind: "set",
      tags: ["é", "🎤"],
    });
  });

  test("an action's writes reach WebSocket subscribers", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "from-action" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const result = await client.action(api.messages.sendViaAction, { channel: "from-action", author: "a", body: "hi" });
    expect(result.count).toBe(1);
    const value = await sub.waitFor((v) => v.length === 1, "the action's message");
    expect(value[0]._id).toBe(result.id);
  });
});

describe("HTTP actions on the site port", () => {
  test("a GET route answers with its status, headers and body", async () => {
    const response = await fetch(`${backend.siteUrl}/hello?name=Dana`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-fixture")).toBe("yes");
    expect(await response.json()).toEqual({ hello: "Dana" });
  });

  test("a POST route runs functions and their writes reach subscribers", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "from-http" });
    const response = await fetch(`${backend.siteUrl}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ channel: "from-http", body: "posted" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ bodies: ["posted"] });
    const value = await sub.waitFor((v) => v.length === 1, "the posted message");
    expect(value[0]).toMatchObject({ author: "http", body: "posted" });
  });

  test("a path-prefix route gets the full path and the request body", async () => {
    const response = await fetch(`${backend.siteUrl}/echo/set/42`, { method: "PUT", body: "tight five" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("/echo/set/42:tight five");
  });

  test("unknown paths and methods are 404", async () => {
    const unknown = await fetch(`${backend.siteUrl}/nowhere`);
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    const wrongMethod = await fetch(`${backend.siteUrl}/hello`, { method: "DELETE" });
    expect([404, 405]).toContain(wrongMethod.status);
    await wrongMethod.body?.cancel();
  });

  test("@convex-dev/auth's OpenID configuration and JWKS are served", async () => {
    const config = await fetch(`${backend.siteUrl}/.well-known/openid-configuration`);
    expect(config.status).toBe(200);
    const openid = (await config.json()) as { issuer: string; jwks_uri: string };
    expect(openid.issuer).toBe(backend.siteUrl);
    expect(openid.jwks_uri).toBe(`${backend.siteUrl}/.well-known/jwks.json`);
    const jwks = await fetch(openid.jwks_uri);
    expect(jwks.status).toBe(200);
    const { keys } = (await jwks.json()) as { keys: { kty: string; n: string; e: string }[] };
    expect(keys.length).toBeGreaterThan(0);
    expect(keys[0]).toMatchObject({ kty: "RSA", e: expect.any(String), n: expect.any(String) });
  });
});
