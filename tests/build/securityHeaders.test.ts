/**
 * The built app was served with no security headers, so StageTime could be framed to clickjack
 * one-tap host actions. The build now writes `_headers` (Netlify, Cloudflare Pages) and an nginx
 * snippet with a Content-Security-Policy that allows index.html's inline scripts by hash and
 * connects only to the configured backend, and `vite preview` serves the same headers.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, preview, type PreviewServer } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  HEADERS_FILE,
  inlineScriptHashes,
  NGINX_FILE,
  parseHeadersFile,
  securityHeaders,
} from "../../scripts/securityHeaders";

const BACKEND = "http://127.0.0.1:9";
const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-headers-"));
let headers: Record<string, string> = {};
let server: PreviewServer | undefined;

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

beforeAll(async () => {
  const saved = { url: process.env.VITE_CONVEX_URL, maps: process.env.VITE_GOOGLE_MAPS_API_KEY };
  process.env.VITE_CONVEX_URL = BACKEND;
  process.env.VITE_GOOGLE_MAPS_API_KEY = "";
  try {
    await build({
      root,
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "silent",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    for (const [name, value] of [
      ["VITE_CONVEX_URL", saved.url],
      ["VITE_GOOGLE_MAPS_API_KEY", saved.maps],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  headers = parseHeadersFile(fs.readFileSync(path.join(outDir, HEADERS_FILE), "utf8"));
}, 240_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe("the build's security headers", () => {
  test("the CSP allows exactly index.html's inline scripts, connects only to the backend and forbids framing", () => {
    const html = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
    const hashes = inlineScriptHashes(html);
    // The scene's preload and first-page scripts are inline: both must run under the policy.
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    const csp = directives(headers["Content-Security-Policy"]);
    expect(csp.get("script-src")).toEqual(["'self'", ...hashes]);
    expect(csp.get("connect-src")).toEqual(["'self'", BACKEND, "ws://127.0.0.1:9"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.get("manifest-src")).toEqual(["'self'"]);
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
  });

  test("the nginx snippet carries the same headers", () => {
    const snippet = fs.readFileSync(path.join(outDir, NGINX_FILE), "utf8");
    const parsed = Object.fromEntries(
      [...snippet.matchAll(/^add_header (\S+) "((?:[^"\\]|\\.)*)" always;$/gm)].map((m) => [m[1], m[2]]),
    );
    expect(parsed).toEqual(headers);
  });

  test("`vite preview` serves them on the page and on assets", async () => {
    server = await preview({
      root,
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "silent",
      build: { outDir },
      preview: { port: 0, strictPort: false, host: "127.0.0.1" },
    });
    const { port } = server.httpServer.address() as AddressInfo;
    for (const page of ["/", "/scene", "/favicon.svg"]) {
      const response = await fetch(`http://127.0.0.1:${port}${page}`);
      expect(response.status, page).toBe(200);
      for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name), name).toBe(value);
    }
  });

  test("with a Maps key, the policy lets Google's Maps script, its requests and images in; wss for an https backend", () => {
    const csp = directives(
      securityHeaders({ html: "", convexUrl: "https://happy-otter-123.convex.cloud", mapsKey: "key" })[
        "Content-Security-Policy"
      ],
    );
    expect(csp.get("script-src")).toContain("https://maps.googleapis.com");
    expect(csp.get("connect-src")).toEqual([
      "'self'",
      "https://happy-otter-123.convex.cloud",
      "wss://happy-otter-123.convex.cloud",
      "https://maps.googleapis.com",
      "https://places.googleapis.com",
    ]);
    expect(csp.get("img-src")).toContain("https://maps.gstatic.com");
    expect(csp.get("font-src")).toContain("https://fonts.gstatic.com");
  });
});
