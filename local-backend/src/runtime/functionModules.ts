/**
 * The functions the engine serves: the current bundle of the functions folder
 * (bundler.ts), its modules loaded on first use, and what kind of function a
 * path names. A reload builds a new bundle in a folder of its own and swaps it in.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FunctionModule, LoadedSchema } from "../database/index.js";
import { Bundle, bundleFunctions, bundlerIdentity } from "./bundle/bundler.js";
import { BundleCache } from "./bundle/bundleCache.js";
import { canonicalPath, type FunctionInfo, type FunctionKind } from "./functionContext.js";

/** Bundle folders left in the temp dir by backends that were killed (kill -9). */
function removeStaleBundles(): void {
  try {
    for (const name of fs.readdirSync(os.tmpdir())) {
      const pid = Number(/^local-backend-bundle-(\d+)-/.exec(name)?.[1]);
      if (!pid || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
      } catch {
        fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
      }
    }
  } catch {
    // Best effort.
  }
}

/** A bundle's schema module's default export (undefined without schema.ts). */
export async function loadSchema(bundle: Bundle): Promise<LoadedSchema | undefined> {
  return bundle.schemaFile
    ? ((await import(pathToFileURL(bundle.schemaFile).href)).default as LoadedSchema | undefined)
    : undefined;
}

export class FunctionModules {
  /** The bundle being served (null before the first build). */
  bundle: Bundle | null = null;
  private moduleCache = new Map<string, Promise<FunctionModule>>();
  private readonly bundleRoot: string;
  private generation = 0;
  private readonly cache: BundleCache | null;

  constructor(
    private readonly functionsDir: string,
    /** Dev tools added on top (see devFunctions.ts); null for none. */
    private readonly devFunctionsDir: string | null = null,
    /** The data directory, where the last bundle is kept for the next start (none: always bundled). */
    dataDir: string | null = null,
  ) {
    this.cache = dataDir
      ? new BundleCache(dataDir, devFunctionsDir ? [functionsDir, devFunctionsDir] : [functionsDir], bundlerIdentity())
      : null;
    removeStaleBundles();
    this.bundleRoot = fs.mkdtempSync(path.join(os.tmpdir(), `local-backend-bundle-${process.pid}-`));
  }

  /** Bundles the functions folder into a new folder (not yet served: see swap). */
  async build(): Promise<Bundle> {
    const outDir = path.join(this.bundleRoot, `gen-${++this.generation}`);
    // A start whose sources are unchanged since the last bundle: that bundle, without esbuild
    // (a reload bundles afresh, so its modules are evaluated again).
    const cached = this.generation === 1 ? this.cache?.restore() : null;
    if (cached) return cached;
    const before = this.cache?.before() ?? null;
    const bundle = await bundleFunctions(this.functionsDir, outDir, this.devFunctionsDir);
    this.cache?.save(bundle, bundle.inputs ?? [], before);
    return bundle;
  }

  /** Serves `bundle` from now on; the previous bundle's files are removed a minute later. */
  swap(bundle: Bundle): void {
    const old = this.bundle;
    this.bundle = bundle;
    this.moduleCache.clear();
    if (old && !this.cache?.holds(old.outDir)) {
      setTimeout(() => fs.rmSync(old.outDir, { recursive: true, force: true }), 60_000).unref();
    }
  }

  /**
   * Serves a copy of the current bundle under new file names, so every module (shared chunks
   * too) is evaluated again when next used: code that read `process.env` when its module
   * loaded sees a new `env set`, as on Convex, where each call evaluates its modules afresh.
   */
  refresh(): void {
    const old = this.bundle;
    if (!old) return;
    const outDir = path.join(this.bundleRoot, `gen-${++this.generation}`);
    fs.cpSync(old.outDir, outDir, { recursive: true });
    const move = (file: string) => path.join(outDir, path.relative(old.outDir, file));
    const moveAll = (modules: Map<string, string>) => new Map([...modules].map(([key, file]) => [key, move(file)]));
    this.swap({
      ...old,
      outDir,
      modules: moveAll(old.modules),
      schemaFile: old.schemaFile && move(old.schemaFile),
      authConfigFile: old.authConfigFile && move(old.authConfigFile),
      components: new Map(
        [...old.components].map(([componentPath, c]) => [
          componentPath,
          { ...c, modules: moveAll(c.modules), schemaFile: c.schemaFile && move(c.schemaFile) },
        ]),
      ),
    });
  }

  /** The bundled file of a module ("messages", "lib/x") of the app or of a component, if any. */
  file(modulePath: string, componentPath = ""): string | undefined {
    const key = modulePath.replace(/\.(js|ts|jsx|tsx|mjs|cjs)$/, "");
    const modules = componentPath ? this.bundle?.components.get(componentPath)?.modules : this.bundle?.modules;
    return modules?.get(key);
  }

  async loadModule(modulePath: string, componentPath = ""): Promise<FunctionModule> {
    const file = this.file(modulePath, componentPath);
    if (!file) {
      const key = modulePath.replace(/\.(js|ts|jsx|tsx|mjs|cjs)$/, "");
      const where = componentPath ? `component "${componentPath}"` : this.functionsDir;
      throw new Error(`Could not find module "${key}" in ${where}`);
    }
    let mod = this.moduleCache.get(file);
    if (!mod) {
      mod = import(pathToFileURL(file).href) as Promise<FunctionModule>;
      this.moduleCache.set(file, mod);
    }
    return await mod;
  }

  /** Module paths of the current bundle ("messages", "lib/x"). */
  moduleNames(): string[] {
    return [...(this.bundle?.modules.keys() ?? [])];
  }

  /** What kind of function a path names, or null if there is none. */
  async describe(udfPath: string): Promise<FunctionInfo | null> {
    const [mod, name] = canonicalPath(udfPath).split(":");
    if (!this.bundle?.modules.has(mod)) return null;
    let exports: FunctionModule;
    try {
      exports = await this.loadModule(mod);
    } catch (error) {
      throw new Error(`Module "${mod}" failed to load: ${(error as Error).message ?? String(error)}`);
    }
    const fn = exports[name] as
      { isQuery?: boolean; isMutation?: boolean; isAction?: boolean; isPublic?: boolean } | undefined;
    if (!fn || (typeof fn !== "function" && typeof fn !== "object")) return null;
    const kind: FunctionKind | null = fn.isQuery ? "query" : fn.isMutation ? "mutation" : fn.isAction ? "action" : null;
    if (kind === null) return null;
    return { kind, visibility: fn.isPublic ? "public" : "internal" };
  }

  /** Removes every bundle this process built. */
  close(): void {
    fs.rmSync(this.bundleRoot, { recursive: true, force: true });
  }
}
