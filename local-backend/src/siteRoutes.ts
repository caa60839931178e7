/**
 * The HTTP-actions site: requests to the site port are routed to convex/http.ts
 * (engine.httpAction), as a Convex deployment's `.convex.site` origin serves them.
 */
import type http from "node:http";
import { AuthError, type TokenVerifier } from "./auth.js";
import type { Engine } from "./engine.js";
import type { Caller } from "./functionContext.js";
import { HttpError, readBody } from "./httpCommon.js";

/** The site listener's request handler. */
export function siteRequestHandler(
  engine: Engine,
  verifier: TokenVerifier,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
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
  };

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
}
