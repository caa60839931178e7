/**
 * The HTTP-actions site: requests to the site port are routed to convex/http.ts
 * (engine.httpAction), as a Convex deployment's `.convex.site` origin serves them.
 */
import type http from "node:http";
import { AuthError, type TokenVerifier } from "../auth/index.js";
import type { FunctionModule } from "../database/index.js";
import { type Caller, type FunctionModules, httpActionErrorBody } from "../runtime/index.js";
import { HttpError, lingerOnUnreadBody, readBody } from "./httpCommon.js";

/** Convex's limit on an HTTP action's request body. */
const MAX_HTTP_BODY_BYTES = 20 * 1024 * 1024;

/** What the site uses of the engine: the bundle's `http` module and running its actions. */
export type SiteHost = {
  readonly functions: Pick<FunctionModules, "bundle">;
  loadModule(modulePath: string): Promise<FunctionModule>;
  httpAction(pathAndQuery: string, init: RequestInit, caller: Caller): Promise<Response>;
  logError(line: string): void;
};

/** The site listener's request handler. */
export function siteRequestHandler(
  engine: SiteHost,
  verifier: TokenVerifier,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    void handleSite(req, res).catch((error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A body left unread (refused before or while reading it) is not read on: the connection closes, lingering.
      if (lingerOnUnreadBody(req)) res.setHeader("Connection", "close");
      if (error instanceof HttpError) {
        res.writeHead(error.status, { "Content-Type": "text/plain" });
        res.end(error.message);
        return;
      }
      // The HTTP action failed (its code threw, its time ran out, its thread died): Convex's answer.
      const { requestId, body } = httpActionErrorBody(error);
      engine.logError(`[Request ID: ${requestId}] HTTP action failed: ${(error as Error)?.stack ?? String(error)}`);
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    });
  };

  /** Whether convex/http.ts has a route for this path and method (as the worker will look it up). */
  async function routes(pathname: string, method: string): Promise<boolean> {
    if (!engine.functions.bundle?.modules.has("http")) return false;
    const router = (await engine.loadModule("http")).default as
      { lookup?(path: string, method: string): unknown } | undefined;
    return Boolean(router?.lookup?.(pathname, method));
  }

  async function handleSite(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    // Routed before the body is read: a path no route serves is answered without taking it.
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!(await routes(pathname, method))) throw new HttpError(404, "NotFound", `No HttpAction routed for ${pathname}`);
    const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req, MAX_HTTP_BODY_BYTES);
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
    // A view of the bytes read, not a copy (actionHost.ts hands them to the worker as they are).
    const view = body && new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    const response = await engine.httpAction(req.url ?? "/", { method, headers, body: view }, caller);
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
}
