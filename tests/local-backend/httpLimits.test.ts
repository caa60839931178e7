import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats } from "./rawClient";

/**
 * Request bodies cannot make the backend hold memory per connection: a path no route
 * serves is answered without reading its body, the bodies held at once share one budget
 * (503 past it, on both listeners), and a body that stalls is timed out.
 */
const BUDGET = 1024 * 1024;
let backend: Backend;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  backend = await startBackend({
    env: { LOCAL_BACKEND_BODY_BUDGET_BYTES: String(BUDGET), LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS: "3" },
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
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`);
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
    const held = stalledRequest(backend.sitePort, "PUT", "/echo/held", 800_000, 1000);
    await waitFor(async () => (await inFlight()) === 800_000, { message: "the stalled body to be counted" });
    const site = stalledRequest(backend.sitePort, "PUT", "/echo/more", 300_000, 1000);
    expect(await site.answered).toMatch(/^HTTP\/1\.1 503 /);
    const api = stalledRequest(backend.port, "POST", "/api/mutation", 300_000, 1000);
    expect(await api.answered).toMatch(/^HTTP\/1\.1 503 /);
    expect(await inFlight()).toBe(800_000);

    held.socket.destroy();
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
    const echo = await fetch(`${backend.siteUrl}/echo/after`, { method: "PUT", body: "x".repeat(300_000) });
    expect(echo.status).toBe(200);
    expect((await echo.text()).length).toBe("/echo/after:".length + 300_000);
    expect(await inFlight()).toBe(0);
  });

  test("a body that stalls is timed out and its bytes are freed", async () => {
    const slow = stalledRequest(backend.sitePort, "PUT", "/echo/slow", 100_000, 10);
    await waitFor(async () => (await inFlight()) === 100_000, { message: "the stalled body to be counted" });
    const answer = await slow.closed;
    expect(answer === "" || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
    await waitFor(async () => (await inFlight()) === 0, { message: "the budget to be freed" });
  }, 60_000);
});
