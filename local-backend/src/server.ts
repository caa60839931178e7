/**
 * The two listeners: the Convex API (HTTP API of ConvexHttpClient, the sync
 * WebSocket, file storage, admin endpoints for the CLI) and the HTTP-actions
 * site serving convex/http.ts. The routes are apiRoutes.ts (with
 * storageRoutes.ts) and siteRoutes.ts; here the listeners and the WebSocket upgrade.
 */
import http from "node:http";
import { WebSocketServer } from "ws";
import { apiRequestHandler } from "./apiRoutes.js";
import { serverLimits, trackResponses } from "./httpCommon.js";
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
