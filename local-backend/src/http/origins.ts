/**
 * Which names and web pages may drive this backend. A browser sends the name it resolved in
 * `Host`, so a DNS-rebinding page (a public name re-pointed at 127.0.0.1) arrives under its own
 * name: only loopback names, IP literals, the `--host` name and the hosts of the configured URLs
 * are served. A page's `Origin` gets CORS answers and sync WebSocket upgrades only when it is a
 * loopback origin, the app's `SITE_URL` or on the `--host` name; any other page cannot read an
 * answer, open a socket or pass a Private Network Access preflight.
 */
import type http from "node:http";
import net from "node:net";

export type OriginRules = {
  /** The address given to `--host` (0.0.0.0 and :: name no host). */
  listenHost: string;
  /** The backend's own URLs (Convex API, HTTP actions). */
  ownUrls: string[];
  /** The app's origin (`SITE_URL`), read per request: `env set SITE_URL` changes it at once. */
  siteUrl: () => string | undefined;
};

let rules: OriginRules = { listenHost: "127.0.0.1", ownUrls: [], siteUrl: () => undefined };

export function setOriginRules(next: OriginRules): void {
  rules = next;
}

/** A hostname without brackets, lower case; null when `host` is not a host[:port]. */
function hostnameOf(host: string): string | null {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) return null;
    return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
}

function urlHostname(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** localhost (and *.localhost, which browsers resolve to loopback themselves), 127.0.0.0/8, ::1. */
function isLoopbackName(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "::1" ||
    (net.isIPv4(hostname) && hostname.startsWith("127."))
  );
}

/** The `--host` name, unless it is a wildcard address. */
function listenName(): string | null {
  const name = rules.listenHost.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "0.0.0.0" || name === "::" || name === "" ? null : name;
}

/**
 * Whether a request's `Host` names this backend: loopback, an IP literal (no DNS name to rebind),
 * the `--host` name, or the host of the backend's own or the app's URL. A request without one
 * (HTTP/1.0 tools) is served; every browser sends one.
 */
export function hostAllowed(host: string | undefined): boolean {
  if (host === undefined) return true;
  const name = hostnameOf(host);
  if (name === null) return false;
  if (isLoopbackName(name) || net.isIP(name) !== 0 || name === listenName()) return true;
  return [...rules.ownUrls, rules.siteUrl()].some((url) => urlHostname(url) === name);
}

/**
 * Whether a page of `origin` may read answers and open sync sockets: a loopback origin (the
 * Vite dev server, `vite preview`, the tests' static server), the app's `SITE_URL`, or one on the
 * `--host` name. No `Origin` (a server-side client) is allowed; "null" (a sandboxed frame, a file)
 * is not.
 */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const parsed = originOf(origin);
  if (parsed === null || parsed !== origin.toLowerCase().replace(/\/$/, "")) return false;
  const { protocol, hostname } = new URL(parsed);
  if (protocol !== "http:" && protocol !== "https:") return false;
  const name = hostname.replace(/^\[|\]$/g, "");
  if (isLoopbackName(name) || name === listenName()) return true;
  return parsed === originOf(rules.siteUrl());
}

/** What a refused request is told, or null when it may go on (`Origin` checked only where `checkOrigin`). */
export function refusal(req: http.IncomingMessage, checkOrigin: boolean): { code: string; message: string } | null {
  if (!hostAllowed(req.headers.host)) {
    return {
      code: "ForbiddenHost",
      message: `This backend does not answer to the name ${JSON.stringify(req.headers.host)}: use localhost, 127.0.0.1 or the address it was started on (--host)`,
    };
  }
  const origin = req.headers.origin;
  const privateNetwork = req.method === "OPTIONS" && req.headers["access-control-request-private-network"] === "true";
  if ((checkOrigin || privateNetwork) && !originAllowed(origin)) {
    return {
      code: "ForbiddenOrigin",
      message: `Pages of ${JSON.stringify(origin)} may not use this backend: only loopback origins and the app's SITE_URL may`,
    };
  }
  return null;
}
