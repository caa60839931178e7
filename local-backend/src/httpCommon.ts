/** What the API and the HTTP-actions site share: errors as HTTP answers, CORS, bodies, JSON replies. */
import type http from "node:http";
import { knob } from "./knobs.js";

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

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Whether a Content-Type is JSON the way Convex's HTTP API decides it
 * (`json_content_type` in convex-backend's crates/common/src/http/extract.rs,
 * which parses it as a MIME type): type "application" and subtype "json" or a
 * "+json" suffix, in any case, with well-formed parameters. Anything else,
 * text/plain included, is refused before the body is read.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [essence, ...params] = header.split(";");
  const slash = essence.indexOf("/");
  if (slash < 0) return false;
  // No space inside "type/subtype" (the MIME parser refuses it); the header's own ends may have some.
  const type = essence.slice(0, slash).trimStart();
  const subtype = essence.slice(slash + 1).trimEnd();
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return false;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0) {
      if (param.trim() === "") continue;
      return false;
    }
    const value = param.slice(eq + 1).trim();
    if (!TOKEN.test(param.slice(0, eq).trim()) || !(TOKEN.test(value) || /^"(?:[^"\\]|\\.)*"$/.test(value)))
      return false;
  }
  const sub = subtype.toLowerCase();
  return type.toLowerCase() === "application" && (sub === "json" || sub.endsWith("+json"));
}

/** A JSON body; `empty` stands in for a body with no bytes ("" is not JSON, as on Convex). */
export function parseJson(body: Buffer, empty: string): any {
  try {
    return JSON.parse(body.toString("utf8") || empty);
  } catch {
    throw new HttpError(400, "BadJsonBody", "The request body is not valid JSON");
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

/**
 * Request bodies held by the backend at once, over both listeners: a body's bytes are counted as
 * they arrive (never the length it declares) until its response is done. A body that would go over
 * it is answered 503, so bodies cannot make the backend hold ~20 MiB per connection. A body longer
 * than {@link SMALL_BODY_BYTES} (declared or received) counts in `largeInFlight` too, which may not
 * go past `limit - reserve`: large bodies, however many, leave room for the small ones every query
 * and mutation sends.
 * `LOCAL_BACKEND_BODY_BUDGET_BYTES` changes it (tests).
 */
export const bodyBudget = {
  limit: knob("LOCAL_BACKEND_BODY_BUDGET_BYTES", 96 * 1024 * 1024),
  inFlight: 0,
  /** The bytes of bodies longer than {@link SMALL_BODY_BYTES}, at most `limit - reserve`. */
  largeInFlight: 0,
  get reserve(): number {
    return Math.floor(this.limit / 8);
  },
};
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * How long a body may go without a byte before it is answered 408 and its connection closed
 * (`LOCAL_BACKEND_BODY_IDLE_SECONDS`, 10 s): a stalled body cannot hold its bytes until the
 * request timeout.
 */
export const bodyIdleMs = () => knob("LOCAL_BACKEND_BODY_IDLE_SECONDS", 10) * 1000;

/**
 * How long a response may go without the client taking any of it before its connection is
 * closed (`LOCAL_BACKEND_SEND_IDLE_SECONDS`, 30 s). Without it a client that never reads a large
 * answer held its connection slot, and the request body's bytes counted in {@link bodyBudget}
 * until the response closes, for good. Armed when the response's headers are written, so a
 * request whose function runs long (an action, up to 10 minutes) is not cut while it runs.
 */
export const sendIdleMs = () => knob("LOCAL_BACKEND_SEND_IDLE_SECONDS", 30) * 1000;

/**
 * Each request's response (server.ts records it), so a body's bytes are counted until it is
 * answered; and from its headers on, the {@link sendIdleMs} limit on its connection (Node
 * destroys a socket whose timeout nobody listens for; after the response, keep-alive's own
 * timeout replaces it).
 */
const responses = new WeakMap<http.IncomingMessage, http.ServerResponse>();
export function trackResponses(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    responses.set(req, res);
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
      this.setTimeout(sendIdleMs());
      return writeHead.apply(this, args);
    } as typeof writeHead;
    handler(req, res);
  };
}

/**
 * Bytes of one body (or WebSocket message) counted in {@link bodyBudget} as they arrive, until
 * {@link release}: `add` throws 503 past the budget, counting nothing.
 */
export class BodyBytes {
  private counted = 0;
  private large = false;

  constructor(private readonly declared: number | null = null) {}

  get bytes(): number {
    return this.counted;
  }

  add(bytes: number): void {
    const nowLarge = Math.max(this.declared ?? 0, this.counted + bytes) > SMALL_BODY_BYTES;
    const addLarge = nowLarge ? (this.large ? bytes : this.counted + bytes) : 0;
    if (
      bodyBudget.inFlight + bytes > bodyBudget.limit ||
      bodyBudget.largeInFlight + addLarge > bodyBudget.limit - bodyBudget.reserve
    ) {
      throw new HttpError(503, "ServerBusy", "The backend is receiving too many request bodies; retry shortly");
    }
    bodyBudget.inFlight += bytes;
    bodyBudget.largeInFlight += addLarge;
    this.counted += bytes;
    this.large = nowLarge;
  }

  release(): void {
    bodyBudget.inFlight -= this.counted;
    if (this.large) bodyBudget.largeInFlight -= this.counted;
    this.counted = 0;
    this.large = false;
  }
}

/** Counts a request's body bytes in {@link bodyBudget} (503 past it) until its response closes. */
function budgetCounter(req: http.IncomingMessage, declared: number | null): (bytes: number) => void {
  const body = new BodyBytes(declared);
  return (bytes) => {
    const first = body.bytes === 0;
    body.add(bytes);
    if (first) {
      const done = () => body.release();
      const res = responses.get(req);
      if (res) res.once("close", done);
      else req.once("close", done);
    }
  };
}

/**
 * The request's body, at most `limit` bytes (413 beyond, without reading a declared length
 * over it), counted as it arrives in the shared {@link bodyBudget} unless `budget` is false
 * (requests with the admin key). A body that sends no byte for {@link bodyIdleMs} is answered 408.
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
  const count = budget ? budgetCounter(req, declared) : () => {};
  const idleMs = bodyIdleMs();
  return await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onAborted).off("close", onClose);
    };
    const fail = (error: unknown) => {
      stop();
      req.pause();
      reject(error);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => fail(new HttpError(408, "RequestTimeout", `No request body bytes for ${idleMs / 1000} s`)),
        idleMs,
      );
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (declared !== null && size > declared) {
        return fail(new HttpError(400, "BadRequest", "Body longer than Content-Length"));
      }
      if (size > limit) return fail(new HttpError(413, "PayloadTooLarge", `Request body exceeds ${limit} bytes`));
      try {
        count(chunk.length);
      } catch (error) {
        return fail(error);
      }
      chunks.push(chunk);
      arm();
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    // The client went away mid-body: answered (to no one) as a client error, not logged as the backend's.
    const onAborted = () => fail(new HttpError(400, "RequestAborted", "The request body was not completed"));
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    req.on("data", onData).once("end", onEnd).once("error", onAborted).once("close", onClose);
    arm();
  });
}

/**
 * The listeners' limits on connections: the API listener, which holds every open tab's WebSocket
 * (a city's comedians on a Friday night), at most `LOCAL_BACKEND_MAX_CONNECTIONS` (20,000); the
 * HTTP actions' listener, whose requests are short, at most `LOCAL_BACKEND_MAX_SITE_CONNECTIONS`
 * (1,000); the headers within 20 s and the whole request (its body) within
 * `LOCAL_BACKEND_REQUEST_TIMEOUT_SECONDS` (60 s; Node's default is 300 s), checked every second.
 */
export const serverLimits = {
  maxConnections: knob("LOCAL_BACKEND_MAX_CONNECTIONS", 20_000),
  maxSiteConnections: knob("LOCAL_BACKEND_MAX_SITE_CONNECTIONS", 1000),
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
