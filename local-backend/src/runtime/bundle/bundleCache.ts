/**
 * The last bundle of the functions, kept in the data directory (`bundle-cache/`) so a restart
 * whose sources did not change skips esbuild (seconds on a busy machine) and serves it as it is
 * (`bundle-cache/<n>/`, never changed once written; `bundle.json` names the current one).
 * It is used only when every file it was built from (the functions folders, each component's
 * folder and every file esbuild read) has the size and modification time it had then, and no
 * file was added to or removed from those folders.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { version as esbuildVersion } from "esbuild";
import type { Bundle, ComponentBundle } from "./bundler.js";
import { DIR_MODE, FILE_MODE, restrictPermissions } from "../../storage/index.js";

const FORMAT = 1;

/** `size:mtime` of a file, or null if it is gone. */
function fingerprint(file: string): string | null {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** Every file under `dir` (nested node_modules left out) with its fingerprint. */
function walk(dir: string, into: Record<string, string | null>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    into[dir] = null;
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") walk(file, into);
    } else into[file] = fingerprint(file);
  }
}

type Stored = {
  key: string;
  /** The folder in bundle-cache/ holding the bundle. */
  out: string;
  /** The folders walked (the functions folders and each component's). */
  dirs: string[];
  /** Files esbuild read besides those folders' (packages in node_modules). */
  inputs: string[];
  files: Record<string, string | null>;
  bundle: {
    modules: [string, string][];
    schemaFile: string | null;
    authConfigFile: string | null;
    components: [string, { node: ComponentBundle["node"]; modules: [string, string][]; schemaFile: string | null }][];
  };
};

function snapshotFiles(dirs: string[], inputs: string[]): Record<string, string | null> {
  const files: Record<string, string | null> = {};
  for (const dir of dirs) walk(dir, files);
  for (const input of inputs) if (!(input in files)) files[input] = fingerprint(input);
  return files;
}

function sameFiles(a: Record<string, string | null>, b: Record<string, string | null>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => b[k] === a[k]);
}

export class BundleCache {
  private readonly dir: string;

  /** `builder`: the bundler's own code, so a backend that bundles differently never uses an older bundle. */
  constructor(
    dataDir: string,
    private readonly functionsDirs: string[],
    builder: string,
  ) {
    this.dir = path.join(dataDir, "bundle-cache");
    this.key = createHash("sha256")
      .update(JSON.stringify([FORMAT, esbuildVersion, functionsDirs.map((d) => path.resolve(d)), builder]))
      .digest("base64url");
  }

  private readonly key: string;

  /** The bundle served from the cache (kept while this process runs, even after a newer one is saved). */
  private serving: string | null = null;

  /** The cached bundle (served from the cache folder), or null if there is none or it is stale. */
  restore(): Bundle | null {
    let stored: Stored;
    try {
      stored = JSON.parse(fs.readFileSync(path.join(this.dir, "bundle.json"), "utf8")) as Stored;
    } catch {
      return null;
    }
    if (stored.key !== this.key || typeof stored.out !== "string" || !/^[0-9a-z-]+$/.test(stored.out)) return null;
    if (!sameFiles(stored.files, snapshotFiles(stored.dirs, stored.inputs))) return null;
    const outDir = path.join(this.dir, stored.out);
    if (!fs.existsSync(path.join(outDir, "package.json"))) return null;
    this.serving = stored.out;
    const abs = (rel: string) => path.join(outDir, rel);
    const absAll = (modules: [string, string][]) => new Map(modules.map(([k, f]) => [k, abs(f)]));
    const b = stored.bundle;
    return {
      outDir,
      modules: absAll(b.modules),
      schemaFile: b.schemaFile === null ? null : abs(b.schemaFile),
      authConfigFile: b.authConfigFile === null ? null : abs(b.authConfigFile),
      components: new Map(
        b.components.map(([p, c]) => [
          p,
          { node: c.node, modules: absAll(c.modules), schemaFile: c.schemaFile === null ? null : abs(c.schemaFile) },
        ]),
      ),
    };
  }

  /** Whether `dir` is a bundle this cache serves (never removed by the one who served it). */
  holds(dir: string): boolean {
    return path.dirname(dir) === this.dir;
  }

  /**
   * Keeps `bundle` (built from `inputs`, the files esbuild read) for the next start. Best effort:
   * a cache that cannot be written only means the next start bundles again.
   */
  save(bundle: Bundle, inputs: string[], filesBefore: Record<string, string | null> | null): void {
    const dirs = [...this.functionsDirs.map((d) => path.resolve(d))];
    for (const c of bundle.components.values()) dirs.push(path.resolve(c.node.dir));
    const files = snapshotFiles(dirs, inputs);
    // A file changed while esbuild read it: the bundle may hold either version, so it is not kept.
    if (
      filesBefore &&
      !sameFiles(
        filesBefore,
        snapshotFiles(
          this.functionsDirs.map((d) => path.resolve(d)),
          [],
        ),
      )
    ) {
      return;
    }
    const rel = (file: string) => path.relative(bundle.outDir, file);
    const relAll = (modules: Map<string, string>) => [...modules].map(([k, f]) => [k, rel(f)] as [string, string]);
    const stored: Omit<Stored, "out"> = {
      key: this.key,
      dirs,
      inputs,
      files,
      bundle: {
        modules: relAll(bundle.modules),
        schemaFile: bundle.schemaFile === null ? null : rel(bundle.schemaFile),
        authConfigFile: bundle.authConfigFile === null ? null : rel(bundle.authConfigFile),
        components: [...bundle.components].map(([p, c]) => [
          p,
          { node: c.node, modules: relAll(c.modules), schemaFile: c.schemaFile === null ? null : rel(c.schemaFile) },
        ]),
      },
    };
    const out = `${Date.now().toString(36)}-${process.pid.toString(36)}`;
    const tmp = path.join(this.dir, `${out}-tmp`);
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
      fs.cpSync(bundle.outDir, tmp, { recursive: true });
      // Copies keep esbuild's 644/755; the data directory is owner-only like everything in it.
      restrictPermissions(tmp);
      fs.renameSync(tmp, path.join(this.dir, out));
      const index = path.join(this.dir, "bundle.json");
      fs.writeFileSync(`${index}.tmp`, JSON.stringify({ ...stored, out }), { mode: FILE_MODE });
      fs.renameSync(`${index}.tmp`, index);
      // Older bundles, but not the one this process serves.
      for (const name of fs.readdirSync(this.dir)) {
        if (name !== out && name !== this.serving && name !== "bundle.json") {
          fs.rmSync(path.join(this.dir, name), { recursive: true, force: true });
        }
      }
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }

  /** The functions folders' files now (compared after a build: see save). */
  before(): Record<string, string | null> {
    return snapshotFiles(
      this.functionsDirs.map((d) => path.resolve(d)),
      [],
    );
  }
}
