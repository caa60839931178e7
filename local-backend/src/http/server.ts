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
import {
  BodyBytes,
  lingerOnUnreadBody,
  sendJson,
  SMALL_BODY_BYTES,
  serverLimits,
  trackResponses,
} from "./httpCommon.js";
import { TokenVerifier } from "../auth/index.js";
import { FUNCTION_ENV_GLOBAL } from "../runtime/index.js";
import type { Engine } from "../engine/index.js";
import { refusal, setOriginRules } from "./origins.js";
import { siteRequestHandler } from "./siteRoutes.js";
import { SyncManager, MAX_MESSAGE_BYTES } from "../sync/index.js";

export { MAX_UPLOAD_BYTES, sniffImage } from "./storageRoutes.js";

export type Servers = {
  api: http.Server;
  site: http.Server;
  sync: SyncManager;
  verifier: TokenVerifier;
  close: () => Promise<void>;
};

/** Whether `ws` is between the fragments of a message (ws's receiver's own state; see limitMessagesInProgress). */
function fragmentPending(ws: WebSocket): boolean {
  const fragmented = (ws as unknown as { _receiver?: { _fragmented?: unknown } })._receiver?._fragmented;
  // ws 8 keeps the opcode of the message being fragmented there, 0 when none. Should that change, the
  // fragmented-message test in slowClients.test fails (pings would release it, as they once did).
  return typeof fragmented === "number" && fragmented !== 0;
}

/**
 * A sync WebSocket's message in progress is held like a request body: it must complete within the
 * request timeout of its first byte, and past {@link SMALL_BODY_BYTES} its bytes count in the shared
 * body budget (as a large body) until it completes; past either the connection is closed, so a
 * message trickled a byte at a time, or many stalled just short of the 16 MiB frame limit, cannot
 * hold the backend's memory. The protocol's small messages (Connect, queries, most mutations) never
 * touch the budget, so bodies filling it cannot close healthy sync connections. A ping or pong
 * between messages completes what it counted; one between the fragments of a message does not (ws
 * allows them there), so pings cannot keep a fragmented message alive. Counted before ws reads the
 * bytes (a prepended listener).
 */
function limitMessagesInProgress(ws: WebSocket, socket: Duplex): void {
  const counted = new BodyBytes();
  let held = 0;
  let deadline: NodeJS.Timeout | undefined;
  const release = () => {
    counted.release();
    held = 0;
    clearTimeout(deadline);
    deadline = undefined;
  };
  const cutOff = () => {
    release();
    ws.terminate();
  };
  socket.prependListener("data", (chunk: Buffer) => {
    held += chunk.length;
    if (held > SMALL_BODY_BYTES) {
      try {
        counted.add(held - counted.bytes);
      } catch {
        cutOff();
        return;
      }
    }
    deadline ??= setTimeout(cutOff, serverLimits.options.requestTimeout);
  });
  const controlFrame = () => {
    if (!fragmentPending(ws)) release();
  };
  ws.on("message", release).on("close", release).on("ping", controlFrame).on("pong", controlFrame);
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * Answers 403 before `handler` sees a request under a name that is not this backend's (DNS
 * rebinding), or, where `checkOrigin`, from a page of a foreign origin; a foreign Private Network
 * Access preflight is refused on both listeners (origins.ts).
 */
function guarded(handler: Handler, checkOrigin: boolean): Handler {
  return (req, res) => {
    const refused = refusal(req, checkOrigin);
    if (!refused) {
      handler(req, res);
      return;
    }
    const close: Record<string, string> = lingerOnUnreadBody(req) ? { Connection: "close" } : {};
    sendJson(req, res, 403, refused, close);
  };
}

export async function startServers(
  engine: Engine,
  options: { host: string; port: number; sitePort: number; apiUrl?: string; siteUrl?: string },
): Promise<Servers> {
  setOriginRules({
    listenHost: options.host,
    ownUrls: [options.apiUrl, options.siteUrl].filter((url): url is string => url !== undefined),
    siteUrl: () =>
      ((globalThis as Record<string, unknown>)[FUNCTION_ENV_GLOBAL] as Record<string, string> | undefined)?.SITE_URL,
  });
  const verifier = new TokenVerifier(engine);
  engine.onAuthConfigChange = () => verifier.reset();
  const sync = new SyncManager(engine, verifier);

  const api = http.createServer(
    serverLimits.options,
    trackResponses(guarded(apiRequestHandler(engine, sync, verifier), true)),
  );

  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * MAX_MESSAGE_BYTES });
  api.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!/^\/api\/[^/]+\/sync$/.test(path)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    // A page of another site (or a rebinding name) opens no socket: it could sign in and read as anyone.
    const refused = refusal(req, true);
    if (refused) {
      const body = JSON.stringify(refused);
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      limitMessagesInProgress(ws, socket);
      sync.attach(ws, req.socket.remoteAddress ?? "");
    });
  });

  const site = http.createServer(
    serverLimits.options,
    trackResponses(guarded(siteRequestHandler(engine, verifier), false)),
  );
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
