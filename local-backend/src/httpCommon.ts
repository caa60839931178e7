/** What the API and the HTTP-actions site share: errors as HTTP answers, CORS, bodies, JSON replies. */
import type http from "node:http";

/** Convex's status code for a function that ran and failed. */
export const STATUS_UDF_FAILED = 560;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function corsHeaders(req: http.IncomingMessage): Record<string, string> {
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

function knob(name: string, fallback: number): number {
  const value = Number(process.env[name] || NaN);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Request bodies held by the backend at once, over both listeners: a body is counted from its
 * first byte (or, when it says its length, before any is read) until its response is done. A
 * request that would go over it is answered 503 at once, so slow or stalled bodies cannot make
 * the backend hold ~20 MiB per connection. `LOCAL_BACKEND_BODY_BUDGET_BYTES` changes it (tests).
 */
export const bodyBudget = {
  limit: knob("LOCAL_BACKEND_BODY_BUDGET_BYTES", 96 * 1024 * 1024),
  inFlight: 0,
};

/** Each request's response (server.ts records it), so a body's bytes are counted until it is answered. */
const responses = new WeakMap<http.IncomingMessage, http.ServerResponse>();
export function trackResponses(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    responses.set(req, res);
    handler(req, res);
  };
}

/**
 * The request's body, at most `limit` bytes (413 beyond, without reading a declared length
 * over it), counted in the shared {@link bodyBudget} (503 past it) unless `budget` is false
 * (the admin's import, whose caller holds the admin key). One buffer when the length is declared.
 */
export async function readBody(
  req: http.IncomingMessage,
  limit: number,
  { budget = true }: { budget?: boolean } = {},
): Promise<Buffer> {
  const declared = req.headers["content-length"] === undefined ? null : Number(req.headers["content-length"]);
  if (declared !== null && !(Number.isSafeInteger(declared) && declared >= 0)) {
    throw new HttpError(400, "BadRequest", "Invalid Content-Length");
  }
  if (declared !== null && declared > limit) {
    throw new HttpError(413, "PayloadTooLarge", `Request body exceeds ${limit} bytes`);
  }
  let counted = 0;
  const count = (bytes: number) => {
    if (!budget) return;
    if (bodyBudget.inFlight + bytes > bodyBudget.limit) {
      throw new HttpError(503, "ServerBusy", "The backend is receiving too many request bodies; retry shortly");
    }
    bodyBudget.inFlight += bytes;
    if (counted === 0) {
      const done = () => {
        bodyBudget.inFlight -= counted;
        counted = 0;
      };
      const res = responses.get(req);
      if (res) res.once("close", done);
      else req.once("close", done);
    }
    counted += bytes;
  };
  if (declared !== null) {
    count(declared);
    const bytes = Buffer.allocUnsafeSlow(declared);
    let size = 0;
    for await (const chunk of req) {
      const part = chunk as Buffer;
      if (size + part.length > declared) throw new HttpError(400, "BadRequest", "Body longer than Content-Length");
      part.copy(bytes, size);
      size += part.length;
    }
    return size === declared ? bytes : bytes.subarray(0, size);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, "PayloadTooLarge", `Request body exceeds ${limit} bytes`);
    count((chunk as Buffer).length);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The listeners' limits on connections: at most `LOCAL_BACKEND_MAX_CONNECTIONS` each (1,000), the
 * headers within 20 s and the whole request (its body) within `LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS`
 * (60 s; Node's default is 300 s), checked every second.
 */
export const serverLimits = {
  maxConnections: knob("LOCAL_BACKEND_MAX_CONNECTIONS", 1000),
  options: {
    requestTimeout: knob("LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS", 60) * 1000,
    headersTimeout: Math.min(20, knob("LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS", 60)) * 1000,
    connectionsCheckingInterval: 1000,
  } satisfies http.ServerOptions,
};

export function sendJson(
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
