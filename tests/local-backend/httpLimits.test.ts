import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats } from "./rawClient";

/**
 * Request bodies cannot make the backend hold memory per connection: a path no route
 * serves is answered without reading its body, the bodies held at once share one budget
 * (503 past it, on both listeners), counted as its bytes arrive (not as declared), and a
 * body that sends nothing for the idle time (2 s here, well under the 30 s request timeout)
 * is answered 408.
 */
const BUDGET = 1024 * 1024;
let backend: Backend;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  backend = await startBackend({
    env: {
      LOCAL_BACKEND_BODY_BUDGET_BYTES: String(BUDGET),
      LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS: "30",
      LOCAL_BACKEND_BODY_IDLE_SECONDS: "2",
    },
  });
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await backend?.dispose();
});

/** A raw request that sends its headers and the first `sent` bytes of a body of `length`, then stalls. */
function stalledRequest(port: number, method: string, path: string, length: number, sent: number) {
  const socket = net.connect(port, "127.0.0.1");
  sockets.push(socket);
  // A JSON body, as clients send it (the API refuses other types before reading the body, as Convex does).
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
  );
  socket.write(Buffer.alloc(sent, 1));
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  const answered = waitFor(() => received.includes("\r\n\r\n"), { message: `an answer to ${path}` }).then(
    () => received,
  );
  return { socket, answered, closed };
}

/** A normal query, as ConvexHttpClient sends it (a body of a few dozen bytes). */
const query = (headers: Record<string, string> = {}) =>
  fetch(`${backend.url}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ path: "messages:list", args: { channel: "c" }, format: "json" }),
  });

/** Writes a byte to each request's body every 250 ms (under the idle time), until the returned stop is called. */
function trickle(requests: { socket: net.Socket }[]): () => void {
  const timer = setInterval(() => {
    for (const { socket } of requests) if (!socket.destroyed) socket.write("x");
  }, 250);
  return () => clearInterval(timer);
}

const inFlight = async () => (await backendStats(backend)).bodyBytesInFlight as number;

describe("request bodies", () => {
  test("a body to a path no route serves is answered 404 without being read or counted", async () => {
    const requests = [
      ...[1, 2, 3].map((n) => stalledRequest(backend.sitePort, "POST", `/x${n}`, 20 * 1024 * 1024 - 10, 64 * 1024)),
      stalledRequest(backend.port, "POST", "/api/nowhere", 8 * 1024 * 1024, 64 * 1024),
    ];
    for (const request of requests) {
      const answer = await request.answered;
      expect(answer).toMatch(/^HTTP\/1\.1 404 /);
      expect(answer.toLowerCase()).toContain("connection: close");
      await request.closed; // the server drops the connection instead of reading the rest
    }
    expect(await inFlight()).toBe(0);
  });

  test("a declared length over the route's limit is refused (413) before any of it is read", async () => {
    const site = stalledRequest(backend.sitePort, "PUT", "/echo/big", 20 * 1024 * 1024 + 1, 10);
    expect(await site.answered).toMatch(/^HTTP\/1\.1 413 /);
    const api = stalledRequest(backend.port, "POST", "/api/mutation", 64 * 1024 * 1024, 10);
    expect(await api.answered).toMatch(/^HTTP\/1\.1 413 /);
    expect(await inFlight()).toBe(0);
  });

  test("the bodies held at once share one budget: past it both listeners answer 503, and it frees", async () => {
    // Bodies are counted as their bytes arrive: the held one sends 800,000 and trickles (under the idle time).
    const held = stalledRequest(backend.sitePort, "PUT", "/echo/held", 900_000, 800_000);
    const stop = trickle([held]);
    const heldOnly = async () => (await inFlight()) >= 800_000 && (await inFlight()) < 801_000;
    await waitFor(heldOnly, { message: "the stalled body to be counted" });
    const site = stalledRequest(backend.sitePort, "PUT", "/echo/more", 300_000, 200_000);
    expect(await site.answered).toMatch(/^HTTP\/1\.1 503 /);
    const api = stalledRequest(backend.port, "POST", "/api/mutation", 300_000, 200_000);
    expect(await api.answered).toMatch(/^HTTP\/1\.1 503 /);
    await waitFor(heldOnly, { message: "the refused bodies' bytes to be freed" });

    stop();
    held.socket.destroy();
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
    const echo = await fetch(`${backend.siteUrl}/echo/after`, { method: "PUT", body: "x".repeat(300_000) });
    expect(echo.status).toBe(200);
    expect((await echo.text()).length).toBe("/echo/after:".length + 300_000);
    expect(await inFlight()).toBe(0);
  });

  test("a body that stalls is timed out and its bytes are freed", async () => {
    const slow = stalledRequest(backend.sitePort, "PUT", "/echo/slow", 100_000, 10);
    await waitFor(async () => (await inFlight()) === 10, { message: "the stalled body's bytes to be counted" });
    const answer = await slow.closed;
    expect(answer === "" || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
  }, 60_000);

  test("stalled bodies hold the bytes they sent, not the length they declare: queries are still answered", async () => {
    // 17 connections whose declared lengths add up to all but 16 bytes of the budget (12 on the API, 5 on the site).
    const declared = Math.floor(BUDGET / 17);
    const stalled = [
      ...Array.from({ length: 12 }, () => stalledRequest(backend.port, "POST", "/api/query", declared, 1)),
      ...Array.from({ length: 5 }, (_, n) => stalledRequest(backend.sitePort, "PUT", `/echo/s${n}`, declared, 1)),
    ];
    const stop = trickle(stalled);
    await waitFor(async () => (await inFlight()) >= stalled.length, { message: "the stalled bytes to be counted" });
    const answer = await query();
    expect(answer.status).toBe(200);
    expect((await answer.json()).status).toBe("success");
    const echo = await fetch(`${backend.siteUrl}/echo/small`, { method: "PUT", body: "hello" });
    expect(echo.status).toBe(200);
    expect(await inFlight()).toBeGreaterThanOrEqual(stalled.length); // all still held
    expect(await inFlight()).toBeLessThan(1000);
    stop();
    for (const request of stalled) request.socket.destroy();
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
  });

  test("a body that sends nothing for the idle time is answered 408, closed and its bytes freed", async () => {
    const started = Date.now();
    const idle = stalledRequest(backend.port, "POST", "/api/mutation", 100_000, 10);
    const answer = await idle.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(20_000); // the request timeout is 30 s
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
  }, 40_000);

  test("large bodies leave room for small ones, and the admin key's requests are not counted", async () => {
    // One large body sending (not only declaring) 900,000 bytes, then it trickles to stay alive.
    const held = stalledRequest(backend.port, "POST", "/api/mutation", BUDGET - 100, 900_000);
    const small = [1, 2].map((n) => stalledRequest(backend.sitePort, "PUT", `/echo/k${n}`, 64_000, 0));
    const stop = trickle([held, ...small]);
    try {
      await waitFor(async () => (await inFlight()) >= 900_000, { message: "the large body to be counted" });
      const more = stalledRequest(backend.sitePort, "PUT", "/echo/more", 200_000, 60_000);
      expect(await more.answered).toMatch(/^HTTP\/1\.1 503 /);
      expect((await query()).status).toBe(200);

      // Small bodies fill the rest: then even small requests are refused, but not the admin's.
      for (const request of small) request.socket.write(Buffer.alloc(60_000, 1));
      await waitFor(async () => (await inFlight()) >= 900_000 + 2 * 60_000, { message: "the small bodies counted" });
      const refused = stalledRequest(backend.sitePort, "PUT", "/echo/k3", 60_000, 59_000);
      expect(await refused.answered).toMatch(/^HTTP\/1\.1 503 /);
      const { readFile } = await import("node:fs/promises");
      const adminKey = (await readFile(`${backend.dataDir}/admin-key`, "utf8")).trim();
      const stats = await fetch(`${backend.url}/_local/stats`, {
        method: "POST",
        headers: { Authorization: `Convex ${adminKey}` },
        body: JSON.stringify({ pad: "x".repeat(70_000) }),
      });
      expect(stats.status).toBe(200);
      expect((await query({ Authorization: `Convex ${adminKey}` })).status).toBe(200);
      for (const request of small) request.socket.destroy();
    } finally {
      stop();
      held.socket.destroy();
    }
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
  });
});
