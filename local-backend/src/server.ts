/**
 * The two listeners: the Convex API (HTTP API of ConvexHttpClient, the sync
 * WebSocket, file storage, admin endpoints for the CLI) and the HTTP-actions
 * site serving convex/http.ts. The routes are apiRoutes.ts (with
 * storageRoutes.ts) and siteRoutes.ts; here the listeners and the WebSocket upgrade.
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { apiRequestHandler } from "./apiRoutes.js";
import { BodyBytes, serverLimits, trackResponses } from "./httpCommon.js";
import { TokenVerifier } from "./auth.js";
import type { Engine } from "./engine.js";
import { siteRequestHandler } from "./siteRoutes.js";
import { SyncManager } from "./sync.js";
import { MAX_MESSAGE_BYTES } from "./syncSession.js";

export { MAX_UPLOAD_BYTES, sniffImage } from "./storageRoutes.js";

export type Servers = {
  api: http.Server;
  site: http.Server;
  sync: SyncManager;
  verifier: TokenVerifier;
  close: () => Promise<void>;
};

/**
 * A sync WebSocket's message in progress is held like a request body: its bytes count in the
 * shared body budget as they arrive until it (or a ping or pong) completes, and it must complete
 * within the request timeout of its first byte. Past either the connection is closed, so a
 * message trickled a byte at a time, or many stalled just short of the 16 MiB frame limit,
 * cannot hold the backend's memory. Counted before ws reads the bytes (a prepended listener).
 */
function limitMessagesInProgress(ws: WebSocket, socket: Duplex): void {
  const pending = new BodyBytes();
  let deadline: NodeJS.Timeout | undefined;
  const release = () => {
    pending.release();
    clearTimeout(deadline);
    deadline = undefined;
  };
  const cutOff = () => {
    release();
    ws.terminate();
  };
  socket.prependListener("data", (chunk: Buffer) => {
    try {
      pending.add(chunk.length);
    } catch {
      cutOff();
      return;
    }
    deadline ??= setTimeout(cutOff, serverLimits.options.requestTimeout);
  });
  for (const event of ["message", "ping", "pong", "close"]) ws.on(event, release);
}

export async function startServers(
  engine: Engine,
  options: { host: string; port: number; sitePort: number },
): Promise<Servers> {
  const verifier = new TokenVerifier(engine);
  engine.onAuthConfigChange = () => verifier.reset();
  const sync = new SyncManager(engine, verifier);

  const api = http.createServer(serverLimits.options, trackResponses(apiRequestHandler(engine, sync, verifier)));

  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * MAX_MESSAGE_BYTES });
  api.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!/^\/api\/[^/]+\/sync$/.test(path)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      limitMessagesInProgress(ws, socket);
      sync.attach(ws);
    });
  });

  const site = http.createServer(serverLimits.options, trackResponses(siteRequestHandler(engine, verifier)));
  api.maxConnections = serverLimits.maxConnections;
  site.maxConnections = serverLimits.maxSiteConnections;

  const listen = (server: http.Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(api, options.port);
  await listen(site, options.sitePort);

  const close = async () => {
    sync.stop();
    for (const client of wss.clients) client.terminate();
    wss.close();
    await Promise.all(
      [api, site].map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections?.();
          }),
      ),
    );
  };
  return { api, site, sync, verifier, close };
}
