/**
 * Any website could drive the local backend: the API reflected any `Origin` with credentials, and
 * the sync WebSocket checked neither `Origin` nor `Host`, so a page of another site (or a
 * DNS-rebinding name pointed at 127.0.0.1) opened a socket, signed in and read. Now `Host` must
 * name this backend on every request, a foreign `Origin` gets no socket, no CORS answer and no
 * Private Network Access preflight, and the app's own origins (loopback, SITE_URL) keep working.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { type Backend, startBackend } from "../local-backend/harness";

const SITE_URL = "https://stagetime.example";
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ extraArgs: ["--site-url", SITE_URL] });
});

afterAll(async () => {
  await backend?.dispose();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A raw request, so `Host` can be what a rebinding page's browser sends. */
function request(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function query(headers: Record<string, string>): Promise<Answer> {
  const body = JSON.stringify({ path: "messages:list", args: [{ channel: "origins" }], format: "json" });
  return request(`${backend.url}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });
}

/** Opens the sync socket with these headers: "open", or the refusal's status. */
function openSocket(headers: { origin?: string; host?: string }): Promise<"open" | number> {
  const url = `${backend.url.replace(/^http/, "ws")}/api/1.48.0/sync`;
  const socket = new WebSocket(url, {
    ...(headers.origin ? { origin: headers.origin } : {}),
    ...(headers.host ? { headers: { Host: headers.host } } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once("open", () => {
      socket.terminate();
      resolve("open");
    });
    socket.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

describe("Host must name this backend (DNS rebinding)", () => {
  test("the API, the sync socket and the HTTP actions site refuse a rebinding name", async () => {
    const port = new URL(backend.url).port;
    const rebound = await query({ Host: `rebind.attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).code).toBe("ForbiddenHost");
    expect(await openSocket({ host: `rebind.attacker.example:${port}` })).toBe(403);
    const sitePort = new URL(backend.siteUrl).port;
    const site = await request(`${backend.siteUrl}/hello`, {
      headers: { Host: `rebind.attacker.example:${sitePort}` },
    });
    expect(site.status).toBe(403);
    expect(site.body).not.toContain("hello");
  });

  test("loopback names, IP literals and the site URL's host are served", async () => {
    const port = new URL(backend.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "stagetime.example"]) {
      expect((await query({ Host: host })).status, host).toBe(200);
    }
    const site = await request(`${backend.siteUrl}/hello?name=host`, {
      headers: { Host: `localhost:${new URL(backend.siteUrl).port}` },
    });
    expect(JSON.parse(site.body)).toEqual({ hello: "host" });
  });
});

describe("a page of another site cannot drive the backend", () => {
  test("its sync socket is refused; the app's own origins and server clients connect", async () => {
    expect(await openSocket({ origin: "https://attacker.example" })).toBe(403);
    expect(await openSocket({ origin: "null" })).toBe(403);
    expect(await openSocket({ origin: "http://localhost:5173" })).toBe("open");
    expect(await openSocket({ origin: "http://127.0.0.1:4173" })).toBe("open");
    expect(await openSocket({ origin: SITE_URL })).toBe("open");
    expect(await openSocket({})).toBe("open");
  });

  test("its API calls are refused and get no CORS answer; the app's origin gets one", async () => {
    const foreign = await query({ Origin: "https://attacker.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    expect(foreign.headers["access-control-allow-credentials"]).toBeUndefined();

    for (const origin of ["http://localhost:5173", SITE_URL]) {
      const own = await query({ Origin: origin });
      expect(own.status).toBe(200);
      expect(own.headers["access-control-allow-origin"]).toBe(origin);
    }
  });

  test("a Private Network Access preflight from a public origin is refused", async () => {
    const preflight = (origin: string) =>
      request(`${backend.url}/api/query`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type",
          "Access-Control-Request-Private-Network": "true",
        },
      });
    const foreign = await preflight("https://attacker.example");
    expect(foreign.status).toBe(403);
    expect(foreign.headers["access-control-allow-private-network"]).toBeUndefined();
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();

    const sitePreflight = await request(`${backend.siteUrl}/hello`, {
      method: "OPTIONS",
      headers: { Origin: "https://attacker.example", "Access-Control-Request-Private-Network": "true" },
    });
    expect(sitePreflight.status).toBe(403);

    const own = await preflight("http://localhost:5173");
    expect(own.status).toBe(204);
    expect(own.headers["access-control-allow-private-network"]).toBe("true");
    expect(own.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
  });
});
