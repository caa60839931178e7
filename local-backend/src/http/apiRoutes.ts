/**
 * The Convex API's HTTP routes (the listener in server.ts): ConvexHttpClient's
 * /api/query, /api/mutation, /api/action, /api/function, /api/run/..., file
 * storage (storageRoutes.ts) and the admin endpoints the CLI uses.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import { join } from "node:path";
import { convexToJson, jsonToConvex, type Value } from "convex/values";
import { isAdminKey, type TokenVerifier } from "../auth/index.js";
import { runRecordingSeed, type Engine } from "../engine/index.js";
import { type Caller, canonicalPath, describeErrorFully } from "../runtime/index.js";
import { OCC_ERROR, OccError } from "../database/index.js";
import {
  bodyBudget,
  corsHeaders,
  HttpError,
  isJsonContentType,
  lingerOnUnreadBody,
  parseJson,
  readBody,
  sendJson,
  STATUS_UDF_FAILED,
} from "./httpCommon.js";
import { handleUpload, serveFile } from "./storageRoutes.js";
import { type QueryResult, functionResult, type SyncManager, MAX_MESSAGE_BYTES } from "../sync/index.js";

/** An admin import (CLI `import` against a running backend). */
const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

/** Writes a request's body to `file`, refusing more than `limit` bytes. */
async function receiveToFile(req: http.IncomingMessage, file: string, limit: number): Promise<void> {
  const tooLarge = () => new HttpError(413, "PayloadTooLarge", `Request body exceeds ${limit} bytes`);
  if (Number(req.headers["content-length"] ?? 0) > limit) throw tooLarge();
  const handle = await fs.promises.open(file, "w", 0o600);
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      await handle.write(chunk);
    }
  } catch (error) {
    if (error instanceof HttpError || req.complete) throw error;
    throw new HttpError(400, "RequestAborted", "The request body was not completed");
  } finally {
    await handle.close();
  }
}
const VERSION = "stagetime-local-backend 0.1.0";

/** The API listener's request handler. */
export function apiRequestHandler(
  engine: Engine,
  sync: SyncManager,
  verifier: TokenVerifier,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const adminKey = engine.store.adminKey();
  /** When each request reached this handler, and the mutations answered over HTTP (`/_local/stats` `httpMutations`). */
  const arrivedAt = new WeakMap<http.IncomingMessage, number>();
  const httpMutations = { answered: 0, totalMs: 0, maxMs: 0 };

  const isAdmin = (req: http.IncomingMessage) => {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("Convex ")) return false;
    return isAdminKey(adminKey, header.slice(7).trim());
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

  /** A message's body; requests with the admin key (the CLI's) are not counted in the shared body budget. */
  const readMessage = (req: http.IncomingMessage) => readBody(req, MAX_MESSAGE_BYTES, { budget: !isAdmin(req) });

  /**
   * A public route's JSON body, read as Convex's own `Json` extractor reads it
   * (crates/common/src/http/extract.rs): the Content-Type must be
   * application/json or application/*+json, checked before the body is read,
   * and an empty body is not JSON.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body: runFunction checks `path` and `args`
  const parseJsonBody = async (req: http.IncomingMessage): Promise<any> => {
    if (!isJsonContentType(req.headers["content-type"]))
      throw new HttpError(400, "BadJsonBody", "Expected request with `Content-Type: application/json`");
    return parseJson(await readMessage(req), "");
  };

  /** The CLI's own endpoints: an empty body means no fields. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the admin CLI's own body, read field by field
  const parseAdminJsonBody = async (req: http.IncomingMessage): Promise<any> => parseJson(await readMessage(req), "{}");

  /** /api/query, /api/mutation, /api/action, /api/function, /api/run/... */
  const runFunction = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    kind: "query" | "mutation" | "action" | "any",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parseJsonBody's: `path` and `args` are checked here
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
    let served: { result: QueryResult; logLines: string[] };
    if (info.kind === "query") {
      // Through the subscriptions' query cache, as Convex's HTTP API goes through its function cache.
      served = await sync.queries.serveOnce(path, args, caller);
    } else {
      const logLines: string[] = [];
      let occ = null as OccError | null;
      const result = await functionResult(logLines, async () => {
        try {
          return info.kind === "mutation"
            ? (await engine.mutation(path, args, caller)).value
            : await engine.action(path, args, caller);
        } catch (error) {
          if (error instanceof OccError && info.kind === "mutation") occ = error;
          throw error;
        }
      });
      // Convex answers a mutation that conflicted on every retry with 503 and the OCC error.
      if (occ) throw new HttpError(503, OCC_ERROR, occ.message);
      served = { result, logLines };
    }
    // What a query read is answered once on disk (the data log fsyncs commits in groups).
    if (info.kind === "query") await engine.durable();
    if (info.kind === "mutation") {
      const took = performance.now() - (arrivedAt.get(req) ?? performance.now());
      httpMutations.answered++;
      httpMutations.totalMs += took;
      if (took > httpMutations.maxMs) httpMutations.maxMs = took;
    }
    const { result, logLines } = served;
    if (result.ok) {
      sendJson(req, res, 200, { status: "success", value: result.value, logLines });
    } else {
      sendJson(req, res, STATUS_UDF_FAILED, {
        status: "error",
        errorMessage: result.message,
        logLines,
        ...(result.data !== undefined ? { errorData: result.data } : {}),
      });
    }
  };

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
    if (method === "POST" && path === "/api/storage/upload") return await handleUpload(engine.files, req, res, url);
    const storageMatch = /^\/api\/storage\/([^/]+)$/.exec(path);
    if ((method === "GET" || method === "HEAD") && storageMatch) {
      return await serveFile(engine.files, req, res, method, storageMatch[1]);
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
        await readMessage(req);
        sendJson(req, res, 200, { ts: Number(engine.lastCommitTs) });
        return;
      case "/api/debug_event":
        await readMessage(req);
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
        const body = await parseAdminJsonBody(req);
        const args = jsonToConvex(body.args ?? {}) as Record<string, unknown>;
        try {
          const value = await runRecordingSeed(engine, String(body.path), args);
          sendJson(req, res, 200, { status: "success", value: convexToJson((value ?? null) as Value) });
        } catch (error) {
          const { message, data } = describeErrorFully(error);
          sendJson(req, res, STATUS_UDF_FAILED, { status: "error", errorMessage: message, errorData: data });
        }
        return;
      }
      case "/_local/env": {
        await readMessage(req);
        await engine.reloadEnv();
        // Functions read the variables: no query result computed with the old ones stays.
        sync.invalidateAll();
        sendJson(req, res, 200, { ok: true });
        return;
      }
      case "/_local/export": {
        await readMessage(req);
        sendJson(req, res, 200, engine.exportSnapshot());
        return;
      }
      case "/_local/stats": {
        // Figures for tests and benchmarks (subscriptions, query re-runs, contention, bodies held).
        await readMessage(req);
        const tokens = { verifiedFromCache: verifier.cacheHits, signatureChecks: verifier.signatureChecks };
        sendJson(req, res, 200, {
          ...sync.stats(),
          ...engine.stats(),
          tokens,
          httpMutations,
          bodyBytesInFlight: bodyBudget.inFlight,
        });
        return;
      }
      case "/_local/compact": {
        // Compacts now (benchmarks and tests): what changed since the last compaction into the segments.
        await readMessage(req);
        sendJson(req, res, 200, engine.compact());
        return;
      }
      case "/_local/import": {
        // To a file first (a snapshot can be longer than V8's longest string), then read a chunk at a time.
        const file = join(engine.store.dir, `import-${randomBytes(8).toString("hex")}.tmp`);
        try {
          await receiveToFile(req, file, MAX_IMPORT_BYTES);
          const result = await engine.importSnapshotFile(file);
          sendJson(req, res, 200, result);
        } finally {
          fs.rmSync(file, { force: true });
        }
        return;
      }
    }
    throw new HttpError(404, "NotFound", `No admin route ${path}`);
  }

  return (req, res) => {
    arrivedAt.set(req, performance.now());
    void handleApi(req, res).catch((error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A body left unread (refused before or while reading it) is not read on: the connection closes, lingering.
      const close: Record<string, string> = lingerOnUnreadBody(req) ? { Connection: "close" } : {};
      if (error instanceof HttpError) {
        sendJson(req, res, error.status, { code: error.code, message: error.message }, close);
      } else {
        engine.logError(`API request failed: ${(error as Error).stack ?? String(error)}`);
        sendJson(req, res, 500, { code: "InternalServerError", message: (error as Error).message }, close);
      }
    });
  };
}
