/**
 * The production build's chunks (issue 18 item 4; scripts/criticalChunks.ts).
 * Over HTTP/1.1 a browser fetches at most six files at a time from one host, so
 * the scene page must load in a few requests, not one per shared module (it
 * loaded 32 JavaScript files). One real `vite build` with the app's own config,
 * read from rolldown's output: which modules each chunk holds and imports.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OutputChunk, RolldownOutput } from "rolldown";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-chunks-"));
let chunks: OutputChunk[] = [];

beforeAll(async () => {
  const output = (await build({
    root,
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "silent",
    build: { outDir, emptyOutDir: true },
  })) as RolldownOutput;
  chunks = output.output.filter((c): c is OutputChunk => c.type === "chunk");
}, 120_000);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

const byFile = () => new Map(chunks.map((c) => [c.fileName, c]));

/** The JavaScript files loaded before a chunk runs: it and its static imports. */
function staticFiles(start: OutputChunk): string[] {
  const files = byFile();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of files.get(file)!.imports) visit(next);
  };
  visit(start.fileName);
  return [...seen];
}

const entry = () => chunks.find((c) => c.isEntry)!;
const page = (module: string) => chunks.find((c) => c.facadeModuleId === path.join(root, module))!;

describe("production chunks", () => {
  test("the entry chunk holds all the entry's static imports, rolldown's runtime too", () => {
    expect(staticFiles(entry())).toEqual([entry().fileName]);
    expect(entry().moduleIds).toContain(path.join(root, "src/main.tsx"));
    expect(entry().moduleIds).toContain("\0rolldown/runtime.js");
  });

  test("the scene page loads three JavaScript files: the entry, the page and its dependencies", () => {
    const scene = page("src/routes/Scene.tsx");
    const files = new Set([...staticFiles(entry()), ...staticFiles(scene)]);
    expect(files.size).toBe(3);
    const deps = chunks.find((c) => c.name === "scene-deps")!;
    expect([...files].sort()).toEqual([entry().fileName, scene.fileName, deps.fileName].sort());
    // What the page draws first is in them (not behind another request).
    expect(deps.moduleIds).toContain(path.join(root, "src/features/scene/ScenePage.tsx"));
    expect(deps.moduleIds.some((id) => id.endsWith("@radix-ui/themes/dist/esm/components/card.js"))).toBe(true);
  });

  test("the landing page loads at most four: the entry, the page, its dependencies and the scene's it shares", () => {
    const landing = page("src/routes/Landing.tsx");
    const files = new Set([...staticFiles(entry()), ...staticFiles(landing)]);
    expect(files.size).toBeLessThanOrEqual(4);
    expect(files).toContain(chunks.find((c) => c.name === "landing-deps")!.fileName);
  });

  test("the entry carries no component only lazy pages use (barrels are followed by the names imported)", () => {
    const ids = entry().moduleIds;
    // Radix Themes' index re-exports every component; the entry draws neither a dialog nor a select.
    for (const component of ["dialog.js", "select.js", "card.js", "data-list.js"]) {
      expect(ids.some((id) => id.endsWith(`@radix-ui/themes/dist/esm/components/${component}`))).toBe(false);
    }
  });

  test("each module is in exactly one chunk, and chunks import each other without cycles", () => {
    const owners = new Map<string, string[]>();
    for (const c of chunks) for (const id of c.moduleIds) owners.set(id, [...(owners.get(id) ?? []), c.fileName]);
    expect([...owners].filter(([, files]) => files.length > 1)).toEqual([]);

    const files = byFile();
    const state = new Map<string, "open" | "done">();
    const cycles: string[][] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "open") cycles.push([...trail.slice(trail.indexOf(file)), file]);
      if (state.has(file)) return;
      state.set(file, "open");
      for (const next of files.get(file)!.imports) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const c of chunks) visit(c.fileName, []);
    expect(cycles).toEqual([]);
  });
});
