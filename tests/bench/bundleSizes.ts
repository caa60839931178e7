/**
 * The JavaScript each page loads before it renders (run.ts part 3): a vite
 * build with its manifest, and the gzip size of the entry, the route's chunk
 * and their static imports.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { kb, root } from "./options";

export type ManifestChunk = {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  css?: string[];
};

function gzipOf(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** Files a route loads before it renders: the entry, the route chunk and their static imports. */
function routeFiles(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith(".js"));
}

/** Gzip bytes each page loads before it renders, by label. */
export type PageSizes = Record<string, number>;

export const PAGES = [
  ["landing (/)", "src/routes/Landing.tsx"],
  ["scene (/scene)", "src/routes/Scene.tsx"],
] as const;

/** The target for each page's JavaScript before its first card (gzip). */
export const PAGE_TARGET_BYTES = 130 * 1024;

/**
 * Builds the app in `sourceRoot` (the checkout by default; a baseline's exported
 * tree with this checkout's node_modules) for the backend at `backendUrl` into a
 * temporary folder, and measures each page's JavaScript. Prints unless `quiet`;
 * with `sourceMaps`, writes hidden source maps beside the chunks (their code unchanged).
 */
export function buildAndMeasure(
  backendUrl: string,
  sourceRoot = root,
  quiet = false,
  sourceMaps = false,
): { outDir: string; sizes: PageSizes; manifest: Record<string, ManifestChunk> } {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "h17-bench-dist-"));
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--manifest",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "error",
      ...(sourceMaps ? ["--sourcemap", "hidden"] : []),
    ],
    {
      cwd: sourceRoot,
      env: { ...process.env, VITE_CONVEX_URL: backendUrl },
      encoding: "utf8",
    },
  );
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const log = quiet ? () => undefined : console.log;
  log("\nJavaScript loaded per page (vite build --manifest: entry + route chunk + static imports, gzip -9)");
  const sizes: PageSizes = {};
  for (const [label, route] of PAGES) {
    const files = routeFiles(manifest, [entry, route]);
    const raw = files.reduce((n, f) => n + fs.statSync(path.join(outDir, f)).size, 0);
    const gz = files.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0);
    sizes[label] = gz;
    log(
      `  ${label.padEnd(16)} ${kb(gz)} gzip (${kb(raw)} raw, ${files.length} files); target < ${kb(PAGE_TARGET_BYTES)}`,
    );
  }
  const allJs = Object.values(manifest)
    .map((c) => c.file)
    .filter((f, i, a) => f.endsWith(".js") && a.indexOf(f) === i);
  log(
    `  whole app        ${kb(allJs.reduce((n, f) => n + gzipOf(path.join(outDir, f)), 0))} gzip over ${allJs.length} chunks`,
  );

  return { outDir, sizes, manifest };
}
