/**
 * What each chunk a page loads before its first card holds (`npm run bench --
 * --only-bundle`): a production build with hidden source maps, each chunk's
 * minified bytes attributed to the modules they came from (as
 * source-map-explorer does), grouped by package (or by the app's own folder),
 * with each group's share of the chunk's gzip size. Prints; asserts nothing.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { TraceMap, eachMapping } from "@jridgewell/trace-mapping";
import { buildAndMeasure, PAGES, type ManifestChunk, type PageSizes } from "./bundleSizes";
import { BASELINE, buildBaseline, printSizes } from "./nearMe";
import { kb, root } from "./options";

const gzip = (bytes: Buffer | string) => zlib.gzipSync(bytes, { level: 9 }).length;

/** A source's group: its package (Radix Themes and Convex by folder), or the app's own file. */
function groupOf(source: string): string {
  const clean = path.isAbsolute(source) ? path.relative(root, source) : source.replace(/^\0/, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm < 0) return clean;
  const parts = clean.slice(nm + "node_modules/".length).split("/");
  const name = parts[0].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  const rest = parts.slice(name.split("/").length);
  if (name === "convex") return `convex/${rest.slice(2, 4).join("/")}`;
  if (name === "@radix-ui/themes") return `@radix-ui/themes/${rest[2] ?? ""}`;
  return name;
}

/** Bytes of one built chunk by group, from its source map. */
function chunkGroups(outDir: string, file: string): Map<string, string> {
  const code = fs.readFileSync(path.join(outDir, file), "utf8");
  const mapFile = path.join(outDir, `${file}.map`);
  const groups = new Map<string, string>();
  if (!fs.existsSync(mapFile)) return new Map([["(no source map)", code]]);
  const map = new TraceMap(fs.readFileSync(mapFile, "utf8"), mapFile);
  const lines = code.split("\n");
  // Each mapping owns the bytes from its column to the next mapping's (or the line's end).
  const marks: { line: number; column: number; source: string }[] = [];
  eachMapping(map, (m) => {
    marks.push({ line: m.generatedLine - 1, column: m.generatedColumn, source: m.source ?? "(unmapped)" });
  });
  marks.sort((a, b) => a.line - b.line || a.column - b.column);
  const add = (group: string, text: string) => groups.set(group, (groups.get(group) ?? "") + text);
  for (let i = 0; i < marks.length; i++) {
    const { line, column, source } = marks[i];
    const next = marks[i + 1];
    const end = next && next.line === line ? next.column : lines[line].length;
    add(groupOf(source), lines[line].slice(column, end));
  }
  return groups;
}

/** Groups smaller than this (gzip bytes) are left out of the list. */
const MIN_SHOWN = Number(process.env.BUNDLE_REPORT_MIN ?? 512);

/** Prints, for each page, its files and what each holds (groups over 0.5 KB gzip); returns the pages' sizes
 * (hidden source maps leave the code as it is, so they are the build's own). */
function bundleReport(backendUrl: string): PageSizes {
  const { outDir, manifest, sizes } = buildAndMeasure(backendUrl, root, false, true);
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const printed = new Set<string>();
  const files = (key: string, seen = new Set<string>()): string[] => {
    if (seen.has(key)) return [];
    seen.add(key);
    const chunk: ManifestChunk = manifest[key];
    return [chunk.file, ...(chunk.imports ?? []).flatMap((k) => files(k, seen))];
  };
  for (const [label, route] of PAGES) {
    const own = [...new Set([...files(entryKey), ...files(route)])];
    console.log(`\n${label}: ${own.join(", ")}`);
    for (const file of own) {
      if (printed.has(file)) {
        console.log(`  ${file} (above)`);
        continue;
      }
      printed.add(file);
      const whole = gzip(fs.readFileSync(path.join(outDir, file)));
      const groups = [...chunkGroups(outDir, file)].map(([name, text]) => ({ name, raw: text.length, gz: gzip(text) }));
      // Gzipped apart, the groups add up to more than the chunk: each is shown as its share of the chunk's gzip.
      const sum = groups.reduce((n, g) => n + g.gz, 0);
      console.log(`  ${file}: ${kb(whole)} gzip`);
      for (const g of groups.sort((a, b) => b.gz - a.gz)) {
        const share = (g.gz / sum) * whole;
        if (share >= MIN_SHOWN) console.log(`    ${kb(share).padStart(9)}  ${kb(g.raw).padStart(9)} min  ${g.name}`);
      }
    }
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  return sizes;
}

/** `--only-bundle`: the report, then each page's size beside the target (and the `--baseline` build's). */
export function bundleOnly(): void {
  // Nothing listens there: the address is only built into the page.
  const backendUrl = "http://127.0.0.1:9";
  const sizes = bundleReport(backendUrl);
  const builds: { label: string; sizes: PageSizes }[] = [];
  if (BASELINE) {
    const before = buildBaseline(BASELINE, backendUrl);
    fs.rmSync(before.outDir, { recursive: true, force: true });
    builds.push(before);
  }
  builds.push({ label: "now", sizes });
  printSizes(builds);
}
