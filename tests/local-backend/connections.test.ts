import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { type Backend, startBackend } from "./harness";

/**
 * The API listener holds every open tab's WebSocket: a city's comedians on a
 * Friday night are more than a thousand at once (issue 18's fan-out bench opens
 * 1,050), so its connection cap must not refuse them. The HTTP actions'
 * listener keeps its own, smaller cap (httpLimits.test.ts covers its requests).
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

describe("connections", () => {
  test("1,100 WebSockets open at once on the API listener, and it still answers", async () => {
    const url = `${backend.url.replace(/^http/, "ws")}/api/1.48.0/sync`;
    const sockets: WebSocket[] = [];
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 1100 }, () => {
          const socket = new WebSocket(url);
          sockets.push(socket);
          return new Promise<"open" | "failed">((resolve) => {
            socket.once("open", () => resolve("open"));
            socket.once("error", () => resolve("failed"));
            socket.once("close", () => resolve("failed"));
          });
        }),
      );
      expect(outcomes.filter((outcome) => outcome === "open")).toHaveLength(1100);
      const response = await fetch(`${backend.url}/version`);
      expect(response.status).toBeLessThan(500);
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  }, 120_000);
});
