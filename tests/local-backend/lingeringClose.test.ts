import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";

/**
 * A body refused before it is read (413 from its declared length) is answered and its connection
 * closed the way nginx closes it: the answer, a half close, the rest of the body read and dropped
 * for a bounded time, then the close. A client still sending the body (fetch) gets the answer,
 * not a reset; a client that keeps sending after it is cut off within the bound
 * (`LOCAL_BACKEND_LINGER_SECONDS`, and never past the request timeout).
 */
let backend: Backend;
let shortTimeout: Backend;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  [backend, shortTimeout] = await Promise.all([
    startBackend({ env: { LOCAL_BACKEND_LINGER_SECONDS: "1" } }),
    startBackend({ env: { LOCAL_BACKEND_LINGER_SECONDS: "30", LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS: "3" } }),
  ]);
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all([backend?.dispose(), shortTimeout?.dispose()]);
});

const BIG = 24 * 1024 * 1024;
const bigMutation = () =>
  JSON.stringify({
    path: "messages:send",
    format: "json",
    args: [{ channel: "x", author: "x", body: "x".repeat(BIG) }],
  });

/**
 * A raw request declaring a 24 MiB body that, once answered, keeps sending a byte every 100 ms;
 * resolves with the answer and how long after it the backend closed the connection.
 */
function tricklingClient(port: number): Promise<{ answer: string; closedAfterMs: number; sinceStartMs: number }> {
  const start = Date.now();
  return new Promise((resolve) => {
    // Half open: the backend's FIN after its answer does not end this side, which goes on sending.
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    sockets.push(socket);
    let answer = "";
    let answeredAt = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answeredAt === 0) {
        answeredAt = Date.now();
        timer = setInterval(() => socket.writable && socket.write("x"), 100);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      const now = Date.now();
      resolve({ answer, closedAfterMs: now - answeredAt, sinceStartMs: now - start });
    });
    socket.write(
      `POST /api/mutation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BIG}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(1024, 120));
  });
}

describe("a body refused before it is read", () => {
  test("fetch POSTing 24 MiB to /api/mutation gets the 413 and its JSON error, 10 times out of 10", async () => {
    const body = bigMutation();
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${backend.url}/api/mutation`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      expect(response.status, `attempt ${i}`).toBe(413);
      expect(response.headers.get("connection")).toBe("close");
      expect(await response.json()).toEqual({
        code: "PayloadTooLarge",
        message: expect.stringContaining("Request body exceeds"),
      });
    }
    expect(backend.running).toBe(true);
  });

  test("fetch PUTting 24 MiB to an HTTP action route (limit 20 MiB) gets the 413, 10 times out of 10", async () => {
    const body = Buffer.alloc(BIG, 120);
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${backend.siteUrl}/echo/big`, { method: "PUT", body });
      expect(response.status, `attempt ${i}`).toBe(413);
      expect(await response.text()).toBe(`Request body exceeds ${20 * 1024 * 1024} bytes`);
    }
    // The listener still serves a body under the limit.
    const small = await fetch(`${backend.siteUrl}/echo/small`, { method: "PUT", body: "hi" });
    expect(await small.text()).toBe("/echo/small:hi");
  });

  test("fetch uploading 24 MiB to an upload URL (limit 10 MiB) gets the 413, 10 times out of 10", async () => {
    const body = Buffer.alloc(BIG, 120);
    for (let i = 0; i < 10; i++) {
      const url = await backend.client().mutation(api.files.generateUploadUrl, {});
      const response = await fetch(url, { method: "POST", headers: { "Content-Type": "image/png" }, body });
      expect(response.status, `attempt ${i}`).toBe(413);
      expect(await response.json()).toMatchObject({ code: "PayloadTooLarge" });
    }
  });

  test("a client blasting a huge declared body after the answer is cut off once 32 MiB are dropped", async () => {
    const written = await new Promise<number>((resolve) => {
      const socket = net.connect({ port: backend.port, host: "127.0.0.1", allowHalfOpen: true });
      sockets.push(socket);
      let total = 0;
      let open = true;
      const chunk = Buffer.alloc(1024 * 1024, 120);
      const pump = () => {
        while (open && total < 512 * 1024 * 1024) {
          total += chunk.length;
          if (!socket.write(chunk)) return;
        }
      };
      socket.on("drain", pump);
      socket.on("error", () => {});
      socket.on("close", () => {
        open = false;
        resolve(total);
      });
      socket.write(
        `POST /api/mutation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${9 * 1024 ** 3}\r\n\r\n`,
      );
      pump();
    });
    // 32 MiB dropped, plus what the two kernels buffer on loopback; a 100 ms check let 54-84 MiB through.
    expect(written).toBeLessThan(48 * 1024 * 1024);
  });

  test("a client that keeps sending after the answer is cut off within LOCAL_BACKEND_LINGER_SECONDS", async () => {
    const { answer, closedAfterMs } = await tricklingClient(backend.port);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    // Lingering 1 s (checked every 100 ms), not until the trickle stops nor the 30 s send-idle timeout.
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(2500);
  });

  test("lingering never goes past the request timeout", async () => {
    const { answer, sinceStartMs } = await tricklingClient(shortTimeout.port);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // LOCAL_BACKEND_LINGER_SECONDS is 30 here, the request timeout 3 s: closed by then.
    expect(sinceStartMs).toBeGreaterThanOrEqual(2500);
    expect(sinceStartMs).toBeLessThan(4500);
  });
});
