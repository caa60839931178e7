import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { HEADERS_FILE, parseHeadersFile } from "../../../scripts/securityHeaders";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * Serves a built single-page app: existing files as they are, every other GET path as
 * index.html so client-side routes (/scene, /nope) load the app (which shows its 404 page).
 */
export async function startStaticServer(root: string, port: number, host = "127.0.0.1"): Promise<http.Server> {
  const rootDir = path.resolve(root);
  const indexHtml = path.join(rootDir, "index.html");
  // The build's security headers (CSP, no framing), as a static host configured from _headers sends them.
  const headersPath = path.join(rootDir, HEADERS_FILE);
  const security = fs.existsSync(headersPath) ? parseHeadersFile(fs.readFileSync(headersPath, "utf8")) : {};
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    let file = path.join(rootDir, decodeURIComponent(url.pathname));
    if (!file.startsWith(rootDir)) {
      res.writeHead(403).end();
      return;
    }
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      // A missing asset is a real 404; a missing route is the app's business.
      if (path.extname(url.pathname) !== "" && url.pathname.startsWith("/assets/")) {
        res.writeHead(404).end();
        return;
      }
      file = indexHtml;
    }
    const type = contentTypes[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    // Hashed assets never change; the page, the service worker and the manifest do.
    const unhashed = /^\/(sw\.js|manifest\.webmanifest)$/.test(url.pathname);
    res.writeHead(200, {
      ...security,
      "Content-Type": type,
      "Cache-Control": file === indexHtml ? "no-store" : unhashed ? "no-cache" : "public, max-age=31536000, immutable",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
