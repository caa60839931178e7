import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * The security headers the built app must be served with, derived from the build itself: a
 * Content-Security-Policy that allows index.html's inline scripts by their hashes and connects
 * only to the configured backend (its http(s) and ws(s) origin), no framing, a referrer policy
 * and nosniff. With a Google Maps key, the origins Google's Maps JavaScript API loads from.
 */
export type HeaderInputs = {
  /** The built index.html (its inline scripts are hashed). */
  html: string;
  /** VITE_CONVEX_URL: where the app's queries, mutations and sync socket go (and stored files come from). */
  convexUrl: string | undefined;
  /** VITE_GOOGLE_MAPS_API_KEY: set when the venue search uses Google Maps. */
  mapsKey: string | undefined;
};

/** The files the build writes beside index.html: Netlify/Cloudflare Pages `_headers`, and an nginx snippet. */
export const HEADERS_FILE = "_headers";
export const NGINX_FILE = "nginx-security-headers.conf";

/** `sha256-…` of every inline `<script>` (one without `src`) in `html`. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1])) continue;
    hashes.push(`'sha256-${createHash("sha256").update(match[2], "utf8").digest("base64")}'`);
  }
  return hashes;
}

/** The backend's origin and its WebSocket origin, or none without a (valid) URL. */
function backendOrigins(convexUrl: string | undefined): string[] {
  if (!convexUrl) return [];
  try {
    const url = new URL(convexUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return [];
    return [url.origin, `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`];
  } catch {
    return [];
  }
}

const GOOGLE_PICTURES = "https://*.googleusercontent.com";

/** Google's Maps JavaScript API (with Places): what it loads, per source kind. */
const MAPS_SOURCES = {
  script: ["https://maps.googleapis.com", "https://maps.gstatic.com"],
  connect: ["https://maps.googleapis.com", "https://places.googleapis.com"],
  img: ["https://maps.googleapis.com", "https://maps.gstatic.com"],
  font: ["https://fonts.gstatic.com"],
  style: ["https://fonts.googleapis.com"],
};

export function securityHeaders({ html, convexUrl, mapsKey }: HeaderInputs): Record<string, string> {
  const backend = backendOrigins(convexUrl);
  const maps = mapsKey ? MAPS_SOURCES : { script: [], connect: [], img: [], font: [], style: [] };
  const [backendHttp] = backend;
  const csp = [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(html), ...maps.script].join(" "),
    // Radix Themes, sonner and Maps add <style> elements at run time.
    ["style-src 'self' 'unsafe-inline'", ...maps.style].join(" "),
    // Stored photos come from the backend; a Google account's picture from googleusercontent.com.
    ["img-src 'self' data: blob:", ...(backendHttp ? [backendHttp] : []), GOOGLE_PICTURES, ...maps.img].join(" "),
    ["font-src 'self'", ...maps.font].join(" "),
    ["connect-src 'self'", ...backend, ...maps.connect].join(" "),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Frame-Options": "DENY",
    // The origin only, never the path (list and account ids stay private); Maps key restrictions match it.
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=()",
  };
}

/** Netlify / Cloudflare Pages `_headers`: every path gets them. */
export function headersFile(headers: Record<string, string>): string {
  return `/*\n${Object.entries(headers)
    .map(([name, value]) => `  ${name}: ${value}`)
    .join("\n")}\n`;
}

/** `include` it in the nginx `server` (or `location`) block that serves the build. */
export function nginxSnippet(headers: Record<string, string>): string {
  return `${Object.entries(headers)
    .map(([name, value]) => `add_header ${name} "${value.replace(/"/g, '\\"')}" always;`)
    .join("\n")}\n`;
}

/** Reads a `_headers` file back (its `/*` block). */
export function parseHeadersFile(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s+([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (match) headers[match[1]] = match[2];
  }
  return headers;
}

/**
 * Writes `_headers` and the nginx snippet beside the built index.html (from the HTML as written,
 * after every plugin's inline script is in), and makes `vite preview` serve the same headers.
 */
export function securityHeadersPlugin(): Plugin {
  let outDir = "dist";
  let env: Record<string, string> = {};
  return {
    name: "security-headers",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      env = config.env as Record<string, string>;
    },
    writeBundle: {
      order: "post",
      handler() {
        const indexPath = path.join(outDir, "index.html");
        if (!fs.existsSync(indexPath)) return;
        const headers = securityHeaders({
          html: fs.readFileSync(indexPath, "utf8"),
          convexUrl: env.VITE_CONVEX_URL,
          mapsKey: env.VITE_GOOGLE_MAPS_API_KEY,
        });
        fs.writeFileSync(path.join(outDir, HEADERS_FILE), headersFile(headers));
        fs.writeFileSync(path.join(outDir, NGINX_FILE), nginxSnippet(headers));
      },
    },
    configurePreviewServer(server) {
      const file = path.join(outDir, HEADERS_FILE);
      const headers = fs.existsSync(file) ? parseHeadersFile(fs.readFileSync(file, "utf8")) : {};
      server.middlewares.use((_req, res, next) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        next();
      });
    },
  };
}
