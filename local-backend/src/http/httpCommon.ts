/** What the API and the HTTP-actions site share: errors as HTTP answers, CORS, bodies, JSON replies. */
import type http from "node:http";
import type net from "node:net";
import { intKnob, knob } from "../common/index.js";
import { originAllowed } from "./origins.js";

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

const TCHAR = /^[!#$%&'*+.^_`|~0-9A-Za-z-]$/;
const tchar = (c: string | undefined) => c !== undefined && TCHAR.test(c);

/**
 * A Content-Type's type, subtype and +suffix (lower case) as Convex reads it: http's
 * `HeaderValue::to_str` (visible ASCII and tabs only), then the Rust `mime` crate's parser (0.3.17,
 * src/parse.rs), or null where either refuses. Its rules, which are not RFC 7231's: no space before
 * `;`, none around a parameter's `=` nor after an unquoted value, only spaces (no tab) before a
 * parameter, a quoted value ends at its first `"` (no backslash escapes; `""` does not close) and may
 * be followed by spaces, an empty unquoted value and a trailing `;` (or `; `) are allowed. The
 * subtype ends at its last `+` (not its first character), which starts the suffix. The header's own
 * ends are trimmed (both HTTP parsers strip the spaces around a field value).
 */
export function parseMediaType(header: string): { type: string; subtype: string; suffix: string | null } | null {
  if (/[^\t\x20-\x7e]/.test(header)) return null;
  const s = header.replace(/^[ \t]+|[ \t]+$/g, "");
  if (s === "*/*") return { type: "*", subtype: "*", suffix: null };
  const slash = s.indexOf("/");
  if (slash <= 0 || ![...s.slice(0, slash)].every(tchar)) return null;
  let plus = -1;
  let end = s.length;
  for (let i = slash + 1; i < s.length; i++) {
    if (s[i] === "+" && i > slash + 1) plus = i;
    else if (s[i] === ";" && i > slash + 1) {
      end = i;
      break;
    } else if (!tchar(s[i])) return null;
  }
  if (!mediaTypeParamsValid(s, end + 1)) return null;
  const lower = (from: number, to: number) => s.slice(from, to).toLowerCase();
  return {
    type: lower(0, slash),
    subtype: lower(slash + 1, plus >= 0 ? plus : end),
    suffix: plus >= 0 ? lower(plus + 1, end) : null,
  };
}

/** The parameters from `from` on, as mime 0.3.17's `params_from_str` accepts them. */
function mediaTypeParamsValid(s: string, from: number): boolean {
  let i = from;
  while (i < s.length) {
    if (s[i] === " ") {
      i++;
      continue;
    }
    const name = i;
    while (tchar(s[i])) i++;
    if (s[i] !== "=" || i === name) return false;
    i++;
    if (s[i] === '"') {
      const open = i++;
      while (!(s[i] === '"' && i > open + 1)) {
        if (i >= s.length || s.charCodeAt(i) <= 31 || s.charCodeAt(i) === 127) return false;
        i++;
      }
      i++;
      while (s[i] === " ") i++;
    } else {
      const value = i;
      while (tchar(s[i])) i++;
      if (i < s.length && i === value) return false;
    }
    if (i < s.length && s[i++] !== ";") return false;
  }
  return true;
}

/**
 * Whether a Content-Type is JSON the way Convex's HTTP API decides it (`json_content_type` in
 * convex-backend's crates/common/src/http/extract.rs): it parses as a MIME type
 * ({@link parseMediaType}) of type "application" with subtype "json" or suffix "json". Anything
 * else, text/plain included, is refused before the body is read.
 */
export function isJsonContentType(header: string | undefined): boolean {
  const mime = header === undefined ? null : parseMediaType(header);
  return mime !== null && mime.type === "application" && (mime.subtype === "json" || mime.suffix === "json");
}

/** A JSON body; `empty` stands in for a body with no bytes ("" is not JSON, as on Convex). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body: each route checks the fields it reads
export function parseJson(body: Buffer, empty: string): any {
  try {
    return JSON.parse(body.toString("utf8") || empty);
  } catch {
    throw new HttpError(400, "BadJsonBody", "The request body is not valid JSON");
  }
}

/**
 * CORS answers for a page of an allowed origin only (origins.ts); another page's browser gets no
 * `Access-Control-Allow-Origin` and so cannot read the answer. No `Origin`: a server-side client.
 */
export function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin)) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin ?? "*",
    "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS",
    "Access-Control-Allow-Headers":
      (req.headers["access-control-request-headers"] as string | undefined) ??
      "Content-Type, Authorization, Convex-Client",
    "Access-Control-Max-Age": "86400",
    ...(origin ? { Vary: "Origin", "Access-Control-Allow-Credentials": "true" } : {}),
    ...(req.headers["access-control-request-private-network"] === "true"
      ? { "Access-Control-Allow-Private-Network": "true" }
      : {}),
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
  limit: intKnob("LOCAL_BACKEND_BODY_BUDGET_BYTES", 96 * 1024 * 1024),
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
const SEND_IDLE_MS = knob("LOCAL_BACKEND_SEND_IDLE_SECONDS", 30) * 1000;

/**
 * Each request's response (server.ts records it), so a body's bytes are counted until it is
 * answered; and from its headers on, the {@link SEND_IDLE_MS} limit on its connection (Node
 * destroys a socket whose timeout nobody listens for; after the response, keep-alive's own
 * timeout replaces it).
 */
const responses = new WeakMap<http.IncomingMessage, http.ServerResponse>();
/** When each request arrived, so {@link lingerOnUnreadBody} ends within the request timeout. */
const arrived = new WeakMap<http.IncomingMessage, number>();
export function trackResponses(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    responses.set(req, res);
    arrived.set(req, Date.now());
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
      this.setTimeout(SEND_IDLE_MS);
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
  maxConnections: intKnob("LOCAL_BACKEND_MAX_CONNECTIONS", 20_000),
  maxSiteConnections: intKnob("LOCAL_BACKEND_MAX_SITE_CONNECTIONS", 1000),
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

/**
 * The bounds of a lingering close ({@link lingerOnUnreadBody}): at most
 * `LOCAL_BACKEND_LINGER_SECONDS` (5 s) and never past the request's own timeout, at most
 * {@link LINGER_IDLE_MS} without a byte, at most {@link LINGER_MAX_BYTES} read and dropped.
 */
export const lingerMs = () => knob("LOCAL_BACKEND_LINGER_SECONDS", 5) * 1000;
export const LINGER_IDLE_MS = 2000;
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;

/**
 * For an answer sent before the request's body was read (refused from its declared length, its
 * Content-Type or its route, or cut while arriving): whether the body is unread, and if so its
 * connection closes the way nginx and Apache close it (a "lingering close"), so a client still
 * sending the body reads the answer instead of a reset. The caller answers with `Connection:
 * close`. Node, once such an answer is written, calls the socket's `destroySoon`, which destroys
 * it as soon as the FIN is sent; the kernel, closing a socket with received bytes nobody read,
 * sends a reset, and a client still writing its body gets EPIPE/ECONNRESET and loses the answer
 * it had not read yet. Here the socket is half closed instead (the answer, then the FIN), the
 * rest of the body is read and dropped, and the socket is destroyed when the client has sent all
 * it sends (its FIN), or past the bounds ({@link lingerMs}, {@link LINGER_IDLE_MS},
 * {@link LINGER_MAX_BYTES}), whichever comes first.
 */
export function lingerOnUnreadBody(req: http.IncomingMessage): boolean {
  // Nothing to linger on once the request or its socket is gone (an upload stream cut off at its cap destroys both).
  const socket: net.Socket | null = req.socket;
  if (req.complete || req.destroyed || !socket || socket.destroyed) return false;
  // What the parser still hands the request is dropped (readBody stopped listening and paused it),
  // counted as it comes: past LINGER_MAX_BYTES the connection goes at once (a 100 ms check let twice
  // that through on loopback).
  let dropped = 0;
  let lastByte = Date.now();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    lastByte = Date.now();
    if (dropped > LINGER_MAX_BYTES) socket.destroy();
  });
  req.resume();
  const requestLeft = (arrived.get(req) ?? Date.now()) + serverLimits.options.requestTimeout - Date.now();
  socket.destroySoon = () => {
    socket.end();
    lastByte = Date.now();
    const close = () => socket.destroy();
    const deadline = setTimeout(close, Math.max(0, Math.min(lingerMs(), requestLeft)));
    const watch = setInterval(() => {
      if (Date.now() - lastByte >= LINGER_IDLE_MS) close();
    }, 100);
    socket.once("end", close).once("close", () => {
      clearTimeout(deadline);
      clearInterval(watch);
    });
  };
  return true;
}
