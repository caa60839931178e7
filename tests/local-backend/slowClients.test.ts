import net from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend, waitFor } from "./harness";
import { backendStats, RawClient } from "./rawClient";

/**
 * Slow clients (slowloris) cannot hold the listeners' connections: headers sent a byte at a
 * time, a body trickled a byte a second (never idle long enough for the body idle time) and a
 * connection that sends nothing are all cut off by the request timeout
 * (`LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS`, 3 s here, which bounds the headers too), on the API
 * and on the HTTP actions' listener, whose connection slots they free. And that listener's
 * connection cap (`LOCAL_BACKEND_MAX_SITE_CONNECTIONS`) refuses the connection past it and
 * serves again once one closes. The assertions wait for the server to close the socket (never
 * for a time), with generous test timeouts.
 */
const SITE_SLOTS = 4;
const sockets: net.Socket[] = [];

afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

type SlowSocket = {
  socket: net.Socket;
  /** Resolves with what the server sent once it closed the connection. */
  closed: Promise<string>;
  /** Resolves once the socket is connected. */
  connected: Promise<void>;
  /** Writes one byte every `everyMs` until the socket closes (the server must be the one to close it). */
  trickle: (bytes: string, everyMs: number) => void;
  received: () => string;
};

function rawClient(port: number): SlowSocket {
  const socket = net.connect(port, "127.0.0.1");
  sockets.push(socket);
  let received = "";
  let timer: NodeJS.Timeout | undefined;
  socket.on("data", (chunk) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) =>
    socket.on("close", () => {
      clearInterval(timer);
      resolve(received);
    }),
  );
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const trickle = (bytes: string, everyMs: number) => {
    let next = 0;
    timer = setInterval(() => {
      if (!socket.destroyed && !socket.writableEnded) socket.write(bytes[next++ % bytes.length]);
    }, everyMs);
  };
  return { socket, closed, connected, trickle, received: () => received };
}

/** A complete request with `Connection: close`; resolves with the raw answer, or "" if the connection was dropped. */
async function rawRequest(port: number, path: string): Promise<string> {
  const client = rawClient(port);
  await client.connected;
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return await client.closed;
}

/** What a slow client may have been told before its connection was closed: nothing, or 408. */
const CUT_OFF = /^(|HTTP\/1\.1 408 [^]*)$/;

describe("slow clients are cut off", () => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackend({
      env: {
        LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS: "3",
        LOCAL_BACKEND_BODY_IDLE_SECONDS: "30",
        LOCAL_BACKEND_MAX_SITE_CONNECTIONS: String(SITE_SLOTS),
        LOCAL_BACKEND_SEND_IDLE_SECONDS: "2",
      },
    });
  });

  afterAll(async () => {
    await backend?.dispose();
  });

  test("headers a byte at a time, on both listeners", async () => {
    const clients = [backend.port, backend.sitePort].map((port) => {
      const client = rawClient(port);
      client.socket.write("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
      client.trickle("abcdefgh", 250);
      return client;
    });
    for (const client of clients) expect(await client.closed).toMatch(CUT_OFF);
  }, 60_000);

  test("a body trickled a byte a second, never idle, on both listeners; its bytes are freed", async () => {
    const clients = [
      { port: backend.port, request: "POST /api/mutation" },
      { port: backend.sitePort, request: "PUT /echo/slow" },
    ].map(({ port, request }) => {
      const client = rawClient(port);
      client.socket.write(
        `${request} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
      );
      client.trickle("x", 1000);
      return client;
    });
    for (const client of clients) expect(await client.closed).toMatch(CUT_OFF);
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === 0, { message: "bodies freed" });
  }, 60_000);

  test("slow clients filling every connection slot of the HTTP actions' listener are cut off and free them", async () => {
    const idle = rawClient(backend.sitePort);
    const headers = rawClient(backend.sitePort);
    headers.socket.write("PUT /echo/h HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    headers.trickle("X-Slow: a\r\n", 250);
    const bodies = [1, 2].map((n) => {
      const client = rawClient(backend.sitePort);
      client.socket.write(`PUT /echo/b${n} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n`);
      client.trickle("x", 1000);
      return client;
    });
    const slow = [idle, headers, ...bodies];
    expect(slow).toHaveLength(SITE_SLOTS);
    for (const client of slow) expect(await client.closed).toMatch(CUT_OFF);
    // Every slot is free again: as many requests as there are slots are served at once.
    const answers = await Promise.all(Array.from({ length: SITE_SLOTS }, () => rawRequest(backend.sitePort, "/hello")));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  }, 60_000);

  test("a client that never reads its large answer is disconnected, and its request body's bytes are freed", async () => {
    // 16 MiB echoed back: more than the loopback's socket buffers take, so the answer stalls unread.
    const size = 16 * 1024 * 1024;
    const reader = rawClient(backend.sitePort);
    reader.socket.write(`PUT /echo/unread HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${size}\r\n\r\n`);
    reader.socket.write(Buffer.alloc(size, 120));
    reader.socket.pause();
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === size, {
      message: "the body to be read",
    });
    // The backend gives up on the answer (its response closes, freeing the body's bytes) ...
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === 0, { message: "the body freed" });
    // ... and has closed the connection: reading again, the client finds it closed before the whole answer.
    reader.socket.resume();
    expect((await reader.closed).length).toBeLessThan(size);
    expect(await rawRequest(backend.sitePort, "/hello")).toMatch(/^HTTP\/1\.1 200 /);
  }, 60_000);

  test("a slow function's answer is not cut by the send idle time: it only starts once headers are written", async () => {
    // /late-write waits 5 s (more than the send idle time) before answering.
    const response = await fetch(`${backend.siteUrl}/late-write`, {
      method: "POST",
      headers: { Connection: "close" },
      body: JSON.stringify({ channel: "slow", ms: 5000 }),
    });
    expect(response.status).toBe(204);
  }, 60_000);
});

describe("the HTTP actions' listener's connection cap", () => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackend({
      env: { LOCAL_BACKEND_MAX_SITE_CONNECTIONS: String(SITE_SLOTS), LOCAL_BACKEND_BODY_IDLE_SECONDS: "60" },
    });
  });

  afterAll(async () => {
    await backend?.dispose();
  });

  test("the connection past the cap is closed unanswered; once one closes, a new one is served", async () => {
    // SITE_SLOTS requests whose bodies stall: the backend holds them (their first bytes are counted).
    const held = Array.from({ length: SITE_SLOTS }, (_, n) => {
      const client = rawClient(backend.sitePort);
      client.socket.write(`PUT /echo/held${n} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nx`);
      return client;
    });
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === SITE_SLOTS, {
      message: "the held requests to be read",
    });

    expect(await rawRequest(backend.sitePort, "/hello")).toBe("");
    // The API listener has its own cap: it still answers.
    expect((await fetch(`${backend.url}/version`)).status).toBeLessThan(500);
    for (const client of held) expect(client.socket.destroyed).toBe(false);

    held[0].socket.destroy();
    const served = await waitFor(
      async () => {
        const answer = await rawRequest(backend.sitePort, "/hello");
        return answer === "" ? null : answer;
      },
      { message: "a new connection to be served" },
    );
    expect(served).toMatch(/^HTTP\/1\.1 200 /);
    // The others were held all along.
    for (const client of held.slice(1)) expect(client.socket.destroyed).toBe(false);
    for (const client of held) client.socket.destroy();
  }, 60_000);
});

describe("WebSocket messages trickled", () => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackend({ env: { LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS: "3" } });
  });

  afterAll(async () => {
    await backend?.dispose();
  });

  /** A sync WebSocket opened by hand, which sends `sent` bytes of a masked text frame of `length`, then a byte a second. */
  async function partialFrame(length: number, sent: number): Promise<SlowSocket> {
    const client = rawClient(backend.port);
    client.socket.write(
      "GET /api/1.48.0/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    );
    await waitFor(() => client.received().includes("\r\n\r\n"), { message: "the upgrade" });
    expect(client.received()).toMatch(/^HTTP\/1\.1 101 /);
    const header = Buffer.alloc(14);
    header[0] = 0x81; // FIN, text
    header[1] = 0x80 | 127; // masked, 64-bit length
    header.writeBigUInt64BE(BigInt(length), 2);
    client.socket.write(Buffer.concat([header, Buffer.alloc(sent, 0x20)])); // mask key 0: the payload is as sent
    client.trickle(" ", 1000);
    return client;
  }

  test("a message sent a byte a second is cut off by the request timeout, and its bytes are counted until then", async () => {
    const sent = 1024 * 1024;
    const client = await partialFrame(4 * 1024 * 1024, sent);
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight >= sent, {
      message: "the partial message to be counted",
    });
    await client.closed;
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === 0, { message: "its bytes freed" });
  }, 60_000);

  test("a fragmented message with pings between its fragments is still counted and cut off", async () => {
    const ws = new WebSocket(`${backend.url.replace(/^http/, "ws")}/api/1.48.0/sync`);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    const fragment = "x".repeat(1024 * 1024);
    for (let i = 0; i < 4; i++) {
      ws.send(fragment, { fin: false, binary: false });
      ws.ping();
    }
    await waitFor(async () => isClosed || (await backendStats(backend)).bodyBytesInFlight >= 4 * 1024 * 1024, {
      message: "the fragments to be counted",
    });
    expect(isClosed).toBe(false);
    // Pings keep coming, each after a whole frame, until the request timeout (3 s) closes the connection.
    const pinging = setInterval(() => ws.readyState === WebSocket.OPEN && ws.ping(), 500);
    await closed.finally(() => clearInterval(pinging));
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === 0, { message: "its bytes freed" });
  }, 60_000);

  test("whole messages hold nothing once read, and a connection sending them is not cut", async () => {
    const client = await RawClient.open(backend);
    for (let i = 0; i < 3; i++) {
      const requestId = client.mutate("messages:send", { channel: "ws", author: "a", body: "x".repeat(200_000) });
      await client.waitForMessage((m) => m.type === "MutationResponse" && m.requestId === requestId, "the answer");
      await new Promise((resolve) => setTimeout(resolve, 2000)); // the request timeout is 3 s
    }
    expect((await backendStats(backend)).bodyBytesInFlight).toBe(0);
    expect(client.closed).toBe(false);
    await client.close();
  }, 60_000);
});

describe("a full body budget", () => {
  const LIMIT = 1024 * 1024;
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackend({
      env: { LOCAL_BACKEND_BODY_BUDGET_BYTES: String(LIMIT), LOCAL_BACKEND_BODY_IDLE_SECONDS: "60" },
    });
  });

  afterAll(async () => {
    await backend?.dispose();
  });

  test("does not close sync connections: a client connects, subscribes, mutates and gets its results", async () => {
    // Stalled bodies fill the budget to the byte: one large (up to limit - reserve), the rest small
    // (declared no longer than SMALL_BODY_BYTES, 64 KiB).
    const large = 896 * 1024;
    const small = [60 * 1024, 60 * 1024, LIMIT - large - 2 * 60 * 1024];
    const held = [large, ...small].map((bytes) => {
      const client = rawClient(backend.port);
      client.socket.write(
        `POST /api/mutation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes + 1}\r\n\r\n`,
      );
      client.socket.write(Buffer.alloc(bytes, 0x20));
      return client;
    });
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === LIMIT, {
      message: "the budget to be full",
    });

    const client = await RawClient.open(backend);
    client.subscribe([{ queryId: 0, udfPath: "messages:list", args: { channel: "full-budget" } }]);
    await client.waitForMessage(
      (m) =>
        m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0 && mod.type === "QueryUpdated"),
      "the query's result",
    );
    const requestId = client.mutate("messages:send", { channel: "full-budget", author: "a", body: "hello" });
    await client.waitForMessage((m) => m.type === "MutationResponse" && m.requestId === requestId, "the answer");
    await client.waitForMessage(
      (m) =>
        m.type === "Transition" &&
        m.modifications.some((mod: any) => mod.queryId === 0 && mod.value?.[0]?.body === "hello"),
      "the updated result",
    );
    expect(client.closed).toBe(false);
    expect((await backendStats(backend)).bodyBytesInFlight).toBe(LIMIT);
    await client.close();
    for (const client of held) client.socket.destroy();
    await waitFor(async () => (await backendStats(backend)).bodyBytesInFlight === 0, { message: "bodies freed" });
  }, 60_000);
});
