/**
 * The two listeners: the Convex API (HTTP API of ConvexHttpClient, the sync
 * WebSocket, file storage, admin endpoints for the CLI) and the HTTP-actions
 * site serving convex/http.ts.
 */
import http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { timingSafeEqual } from "node:crypto";
import { WebSocketServer } from "ws";
import { convexToJson, jsonToConvex } from "convex/values";
import { AuthError, TokenVerifier } from "./auth.js";
import type { Engine } from "./engine.js";
import { type Caller, canonicalPath, captureLogs } from "./functionContext.js";
import { UploadTooLarge } from "./store.js";
import { MAX_MESSAGE_BYTES, SyncManager, describeError, describeErrorFully } from "./sync.js";

/** Convex's status code for a function that ran and failed. */
const STATUS_UDF_FAILED = 560;
/**
 * The largest file upload: 10 MiB. The app's only uploads are profile photos
 * (5 MB at most, checked by the app), so this is twice that with room for
 * encoding overhead; uploads stream to disk, so the cap bounds disk use per
 * upload URL, not memory.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** An admin import (CLI `import` against a running backend). */
const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
const VERSION = "stagetime-local-backend 0.1.0";

/** The image type the first bytes of a file prove (png, jpeg, gif, webp), or null. */
export function sniffImage(head: Buffer): string | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return "image/png";
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  const ascii = head.toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return null;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    "Access-Control-Allow-Origin": origin ?? "*",
    "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS",
    "Access-Control-Allow-Headers":
      (req.headers["access-control-request-headers"] as string | undefined) ??
      "Content-Type, Authorization, Convex-Client",
    "Access-Control-Max-Age": "86400",
    ...(origin ? { Vary: "Origin", "Access-Control-Allow-Credentials": "true" } : {}),
  };
}

async function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, "PayloadTooLarge", `Request body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function sendJson(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", ...corsHeaders(req), ...extra });
  res.end(text);
}

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
  const adminKey = engine.store.adminKey();

  const isAdmin = (req: http.IncomingMessage) => {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("Convex ")) return false;
    const a = Buffer.from(header.slice(7).trim());
    const b = Buffer.from(adminKey);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const callerFor = async (req: http.IncomingMessage): Promise<Caller> => {
    if (isAdmin(req)) return { kind: "admin" };
    const header = req.headers.authorization ?? "";
    if (header.startsWith("Bearer ")) {
      try {
        const identity = await verifier.verify(header.slice(7).trim());
        return { kind: "user", identity, key: JSON.stringify(identity) };
      } catch (error) {
        throw new HttpError(401, "Unauthenticated", (error as Error).message);
      }
    }
    return { kind: "none" };
  };

  const parseJsonBody = async (req: http.IncomingMessage): Promise<any> => {
    const body = await readBody(req, MAX_MESSAGE_BYTES);
    try {
      return JSON.parse(body.toString("utf8") || "{}");
    } catch {
      throw new HttpError(400, "BadJsonBody", "The request body is not valid JSON");
    }
  };

  /** /api/query, /api/mutation, /api/action, /api/function, /api/run/... */
  const runFunction = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    kind: "query" | "mutation" | "action" | "any",
    body: any,
    pathOverride?: string,
  ) => {
    const caller = await callerFor(req);
    const rawPath = pathOverride ?? body?.path;
    if (typeof rawPath !== "string" || rawPath.length === 0) {
      throw new HttpError(400, "BadRequest", "Missing function `path`");
    }
    const path = canonicalPath(rawPath);
    const info = await engine.describe(path);
    if (!info || (info.visibility !== "public" && caller.kind !== "admin")) {
      throw new HttpError(404, "FunctionNotFound", `Could not find public function for '${path}'`);
    }
    if (kind !== "any" && info.kind !== kind) {
      throw new HttpError(400, "BadRequest", `Function '${path}' is a ${info.kind}, not a ${kind}`);
    }
    let args: Record<string, unknown>;
    try {
      const raw = Array.isArray(body?.args) ? body.args[0] : body?.args;
      args = (raw === undefined ? {} : jsonToConvex(raw)) as Record<string, unknown>;
    } catch (error) {
      throw new HttpError(400, "BadRequest", `Invalid arguments: ${(error as Error).message}`);
    }
    const logLines: string[] = [];
    try {
      const value = await captureLogs(logLines, async () => {
        if (info.kind === "query") return await engine.query(path, args, caller);
        if (info.kind === "mutation") return (await engine.mutation(path, args, caller)).value;
        return await engine.action(path, args, caller);
      });
      sendJson(req, res, 200, { status: "success", value: convexToJson((value ?? null) as any), logLines });
    } catch (error) {
      const { message, data } = describeError(error);
      sendJson(req, res, STATUS_UDF_FAILED, {
        status: "error",
        errorMessage: message,
        logLines,
        ...(data !== undefined ? { errorData: data } : {}),
      });
    }
  };

  const api = http.createServer((req, res) => {
    void handleApi(req, res).catch((error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendJson(req, res, error.status, { code: error.code, message: error.message });
      } else {
        engine.logError(`API request failed: ${(error as Error).stack ?? String(error)}`);
        sendJson(req, res, 500, { code: "InternalServerError", message: (error as Error).message });
      }
    });
  });

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      res.writeHead(204, corsHeaders(req));
      res.end();
      return;
    }
    if (method === "GET" && (path === "/version" || path === "/")) {
      res.writeHead(200, { "Content-Type": "text/plain", ...corsHeaders(req) });
      res.end(VERSION);
      return;
    }
    if (method === "GET" && path === "/instance_name") {
      res.writeHead(200, { "Content-Type": "text/plain", ...corsHeaders(req) });
      res.end("local");
      return;
    }
    if (method === "POST" && path === "/api/storage/upload") {
      const tooLarge = () => {
        // Refused without reading the rest: the connection closes after the answer.
        sendJson(
          req,
          res,
          413,
          { code: "PayloadTooLarge", message: `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes` },
          {
            Connection: "close",
          },
        );
      };
      if (Number(req.headers["content-length"] ?? 0) > MAX_UPLOAD_BYTES) return tooLarge();
      if (!engine.files.claimUploadToken(url.searchParams.get("token"))) {
        throw new HttpError(401, "InvalidUploadToken", "The upload URL is invalid, expired or already used");
      }
      const contentType = (req.headers["content-type"] as string | undefined) ?? null;
      let storageId: string;
      try {
        storageId = await engine.files.storeUpload(req, contentType, MAX_UPLOAD_BYTES);
      } catch (error) {
        if (error instanceof UploadTooLarge) return tooLarge();
        throw error;
      }
      sendJson(req, res, 200, { storageId });
      return;
    }
    const storageMatch = /^\/api\/storage\/([^/]+)$/.exec(path);
    if ((method === "GET" || method === "HEAD") && storageMatch) {
      let storageId: string;
      try {
        storageId = decodeURIComponent(storageMatch[1]);
      } catch {
        throw new HttpError(400, "BadStorageId", "The storage id in the URL is not valid percent-encoding");
      }
      const file = engine.files.getFile(storageId);
      if (!file) throw new HttpError(404, "FileNotFound", "File not found");
      const image = sniffImage(Buffer.from(await file.blob.slice(0, 12).arrayBuffer()));
      // Only a checked raster image whose declared type matches its bytes is shown
      // inline; anything else (HTML, SVG, a PDF, a mislabelled image) downloads,
      // and never runs as a page of the API origin.
      const inline = image !== null && image === file.contentType?.split(";")[0].trim().toLowerCase();
      res.writeHead(200, {
        "Content-Type": file.contentType ?? "application/octet-stream",
        "Content-Length": String(file.blob.size),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        ...(inline ? {} : { "Content-Disposition": "attachment" }),
        "Cache-Control": "private, max-age=2592000",
        ...corsHeaders(req),
      });
      if (method === "HEAD") {
        res.end();
        return;
      }
      // Streamed from disk: a large file is never held in memory whole.
      await pipeline(Readable.fromWeb(file.blob.stream() as any), res);
      return;
    }
    if (method !== "POST") throw new HttpError(404, "NotFound", `No route for ${method} ${path}`);

    switch (path) {
      case "/api/query":
      case "/api/query_at_ts":
        return await runFunction(req, res, "query", await parseJsonBody(req));
      case "/api/mutation":
        return await runFunction(req, res, "mutation", await parseJsonBody(req));
      case "/api/action":
        return await runFunction(req, res, "action", await parseJsonBody(req));
      case "/api/function":
        return await runFunction(req, res, "any", await parseJsonBody(req));
      case "/api/query_ts":
        await readBody(req, MAX_MESSAGE_BYTES);
        sendJson(req, res, 200, { ts: Number(engine.lastCommitTs) });
        return;
      case "/api/debug_event":
        await readBody(req, MAX_MESSAGE_BYTES);
        sendJson(req, res, 200, {});
        return;
    }
    const runMatch = /^\/api\/run\/(.+)$/.exec(path);
    if (runMatch) {
      // /api/run/messages/list -> messages:list
      const parts = runMatch[1].split("/");
      const fn = parts.pop()!;
      return await runFunction(req, res, "any", await parseJsonBody(req), `${parts.join("/")}:${fn}`);
    }
    if (path.startsWith("/_local/")) return await handleAdmin(req, res, path);
    throw new HttpError(404, "NotFound", `No route for ${method} ${path}`);
  }

  /** Endpoints the CLI uses against a running backend (admin key required). */
  async function handleAdmin(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    if (!isAdmin(req)) throw new HttpError(401, "Unauthorized", "Admin key required");
    switch (path) {
      case "/_local/run": {
        const body = await parseJsonBody(req);
        const args = jsonToConvex(body.args ?? {}) as Record<string, unknown>;
        try {
          const value = await engine.runAny(String(body.path), args, { kind: "admin" });
          sendJson(req, res, 200, { status: "success", value: convexToJson((value ?? null) as any) });
        } catch (error) {
          const { message, data } = describeErrorFully(error);
          sendJson(req, res, STATUS_UDF_FAILED, { status: "error", errorMessage: message, errorData: data });
        }
        return;
      }
      case "/_local/env": {
        await readBody(req, MAX_MESSAGE_BYTES);
        await engine.reloadEnv();
        sendJson(req, res, 200, { ok: true });
        return;
      }
      case "/_local/export": {
        await readBody(req, MAX_MESSAGE_BYTES);
        sendJson(req, res, 200, engine.exportSnapshot());
        return;
      }
      case "/_local/stats": {
        // Figures for tests and benchmarks (subscriptions, query re-runs, contention).
        await readBody(req, MAX_MESSAGE_BYTES);
        sendJson(req, res, 200, { ...sync.stats(), ...engine.stats() });
        return;
      }
      case "/_local/compact": {
        // Compacts now (benchmarks and tests): what changed since the last compaction into the segments.
        await readBody(req, MAX_MESSAGE_BYTES);
        sendJson(req, res, 200, engine.compact());
        return;
      }
      case "/_local/import": {
        const body = await readBody(req, MAX_IMPORT_BYTES);
        const result = await engine.importSnapshot(JSON.parse(body.toString("utf8")));
        sendJson(req, res, 200, result);
        return;
      }
    }
    throw new HttpError(404, "NotFound", `No admin route ${path}`);
  }

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

  const site = http.createServer((req, res) => {
    void handleSite(req, res).catch((error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const status = error instanceof HttpError ? error.status : 500;
      if (!(error instanceof HttpError))
        engine.logError(`HTTP action failed: ${(error as Error).stack ?? String(error)}`);
      res.writeHead(status, { "Content-Type": "text/plain" });
      res.end((error as Error).message);
    });
  });

  async function handleSite(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req, 20 * 1024 * 1024);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    let caller: Caller = { kind: "none" };
    const auth = headers.get("authorization");
    if (auth?.startsWith("Bearer ")) {
      try {
        const identity = await verifier.verify(auth.slice(7).trim());
        caller = { kind: "user", identity, key: JSON.stringify(identity) };
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
      }
    }
    const response = await engine.httpAction(
      req.url ?? "/",
      { method, headers, body: body ? new Uint8Array(body) : undefined },
      caller,
    );
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") outHeaders[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) outHeaders["set-cookie"] = cookies;
    const bytes = Buffer.from(await response.arrayBuffer());
    delete outHeaders["content-length"];
    delete outHeaders["content-encoding"];
    outHeaders["content-length"] = String(bytes.length);
    res.writeHead(response.status, response.statusText || undefined, outHeaders);
    res.end(method === "HEAD" ? undefined : bytes);
  }

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
