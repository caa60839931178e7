/**
 * Bundles a Convex functions folder the way `convex deploy` does: every module
 * file is an entry point, files without "use node" are built for the browser
 * platform (so a Node built-in import fails here as it fails on Convex), and
 * "use node" files are built for Node.
 */
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";
import * as esbuild from "esbuild";
import { findUp } from "../../common/index.js";
import { ComponentConfigError, type ComponentNode, componentTree, flattenComponents } from "./components.js";

/**
 * Where bundled function code finds `process.env`: the deployment's variables
 * (`env set`, kept by the engine), never the backend process's own
 * environment, as on Convex (issue 14 item 4).
 */
export const FUNCTION_ENV_GLOBAL = "__localBackendFunctionEnv";

/** Function module paths as Convex picks them (see scripts/codegen.mjs). */
export function modulePaths(base: string, rel = ""): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(base, rel), { withFileTypes: true })) {
    const relPath = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "_generated" || entry.name === "node_modules") continue;
      if (fs.existsSync(path.join(base, relPath, "convex.config.ts"))) continue;
      found.push(...modulePaths(base, relPath));
      continue;
    }
    const name = entry.name;
    if (!/\.(ts|tsx|js|jsx|mjs|cjs)$/.test(name) || name.endsWith(".d.ts")) continue;
    if (name.startsWith(".") || name.startsWith("#")) continue;
    if (name === "schema.ts" || name === "schema.js") continue;
    if ((name.match(/\./g) || []).length > 1) continue;
    if (relPath.includes(" ")) continue;
    found.push(relPath.split(path.sep).join("/"));
  }
  return found.sort();
}

function firstExisting(dir: string, names: string[]): string | null {
  for (const name of names) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function usesNode(file: string): boolean {
  const text = fs.readFileSync(file, "utf8");
  // A directive must come before any statement; comments may precede it.
  const stripped = text.replace(/^(\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  return /^["']use node["']/.test(stripped);
}

export type Bundle = {
  /** Module path without extension ("messages", "lib/x") -> absolute output file. */
  modules: Map<string, string>;
  schemaFile: string | null;
  authConfigFile: string | null;
  outDir: string;
  /** Installed components by component path ("rateLimiter", "rateLimiter/batchWorker"), parents first. */
  components: Map<string, ComponentBundle>;
  /** Every file esbuild read (absolute; bundleCache.ts checks them on the next start). */
  inputs?: string[];
};

/** One component's functions, bundled on their own (see components.ts). */
export type ComponentBundle = {
  node: ComponentNode;
  modules: Map<string, string>;
  schemaFile: string | null;
};

export class BundleError extends Error {}

const OWN_NODE_MODULES = findUp(import.meta.url, "node_modules");

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Bundles `functionsDir` into `outDir` (which must not exist yet), and each
 * component its `convex.config.ts` installs into a folder of its own. The modules of
 * `devFunctionsDir` (see devFunctions.ts), when given, are added to the app's own
 * under their paths in that folder; a path both folders have is refused.
 */
export async function bundleFunctions(
  functionsDir: string,
  outDir: string,
  devFunctionsDir?: string | null,
): Promise<Bundle> {
  if (!fs.existsSync(functionsDir)) throw new BundleError(`Functions folder not found: ${functionsDir}`);
  if (!fs.existsSync(path.join(functionsDir, "_generated"))) {
    throw new BundleError(
      `${functionsDir}/_generated is missing: run \`npm run codegen\` (node scripts/codegen.mjs ${functionsDir}).`,
    );
  }
  let tree: ComponentNode;
  try {
    tree = await componentTree(functionsDir);
  } catch (error) {
    if (error instanceof ComponentConfigError) throw new BundleError(error.message);
    throw error;
  }
  if (devFunctionsDir && !fs.existsSync(devFunctionsDir)) {
    throw new BundleError(`Dev functions folder not found: ${devFunctionsDir}`);
  }
  const root = await bundleDir(functionsDir, outDir, devFunctionsDir ?? null);
  // The bundles are ES modules: said once here, Node loads each file as one at
  // once, instead of first trying it as CommonJS (through any require hook, such
  // as tsx's) and parsing it again (a third of the time to load the functions).
  fs.writeFileSync(path.join(outDir, "package.json"), '{ "type": "module" }\n');
  const components = new Map<string, ComponentBundle>();
  let n = 0;
  for (const node of flattenComponents(tree)) {
    const part = await bundleDir(node.dir, path.join(outDir, "components", String(n++)));
    components.set(node.path, { node, modules: part.modules, schemaFile: part.schemaFile });
  }
  return { ...root, outDir, components };
}

async function bundleDir(
  functionsDir: string,
  outDir: string,
  devFunctionsDir: string | null = null,
): Promise<{
  modules: Map<string, string>;
  schemaFile: string | null;
  authConfigFile: string | null;
  inputs: string[];
}> {
  const browserEntries: Record<string, string> = {};
  const nodeEntries: Record<string, string> = {};
  const from = new Map<string, string>();
  for (const dir of devFunctionsDir ? [functionsDir, devFunctionsDir] : [functionsDir]) {
    for (const mod of modulePaths(dir)) {
      const abs = path.join(dir, mod);
      const key = mod.replace(/\.[^./]+$/, "");
      const earlier = from.get(key);
      if (earlier !== undefined) {
        throw new BundleError(`${abs} and ${earlier} are both the module "${key}": rename one of them.`);
      }
      from.set(key, abs);
      (usesNode(abs) ? nodeEntries : browserEntries)[key] = abs;
    }
  }
  const schema = firstExisting(functionsDir, ["schema.ts", "schema.js"]);
  const authConfig = firstExisting(functionsDir, ["auth.config.ts", "auth.config.js"]);
  if (schema) browserEntries["__schema"] = schema;
  if (authConfig) browserEntries["__auth_config"] = authConfig;

  const common: esbuild.BuildOptions = {
    bundle: true,
    format: "esm",
    target: "esnext",
    splitting: true,
    write: true,
    logLevel: "silent",
    sourcemap: "inline",
    metafile: true,
    conditions: ["convex", "module"],
    absWorkingDir: path.dirname(path.resolve(functionsDir)),
    // A functions folder outside this project (tests copy one to a temp dir)
    // still finds `convex` and friends in the backend's own node_modules.
    nodePaths: [OWN_NODE_MODULES],
    // `convex deploy` inlines NODE_ENV as "production" in every module it pushes, both runtimes.
    define: { "process.env.NODE_ENV": '"production"', "process.env": `globalThis.${FUNCTION_ENV_GLOBAL}` },
  };
  const builds: Promise<esbuild.BuildResult>[] = [];
  if (Object.keys(browserEntries).length > 0) {
    builds.push(
      esbuild.build({
        ...common,
        platform: "browser",
        entryPoints: browserEntries,
        outdir: path.join(outDir, "browser"),
      }),
    );
  }
  if (Object.keys(nodeEntries).length > 0) {
    builds.push(
      esbuild.build({
        ...common,
        platform: "node",
        entryPoints: nodeEntries,
        outdir: path.join(outDir, "node"),
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      }),
    );
  }
  const inputs: string[] = [];
  try {
    for (const result of await Promise.all(builds)) {
      for (const input of Object.keys(result.metafile?.inputs ?? {})) {
        inputs.push(path.resolve(common.absWorkingDir!, input));
      }
    }
  } catch (error) {
    throw new BundleError(describeBuildFailure(error, functionsDir));
  }
  const modules = new Map<string, string>();
  for (const key of Object.keys(browserEntries)) modules.set(key, path.join(outDir, "browser", `${key}.js`));
  for (const key of Object.keys(nodeEntries)) modules.set(key, path.join(outDir, "node", `${key}.js`));
  const schemaFile = modules.get("__schema") ?? null;
  const authConfigFile = modules.get("__auth_config") ?? null;
  modules.delete("__schema");
  modules.delete("__auth_config");
  return { modules, schemaFile, authConfigFile, inputs };
}

/** The bundler's own code (bundleCache.ts: a backend that bundles differently never reuses a bundle). */
export const bundlerIdentity = (): string => bundleFunctions.toString() + bundleDir.toString();

function describeBuildFailure(error: unknown, functionsDir: string): string {
  const errors: esbuild.Message[] = (error as esbuild.BuildFailure)?.errors ?? [];
  if (errors.length === 0) return `Bundling ${functionsDir} failed: ${String(error)}`;
  const lines = errors.map((e) => {
    const where = e.location ? `${e.location.file}:${e.location.line}:${e.location.column}` : functionsDir;
    const spec = /Could not resolve "([^"]+)"/.exec(e.text)?.[1];
    if (spec && NODE_BUILTINS.has(spec)) {
      return (
        `${where}: imports the Node built-in "${spec}", which the Convex runtime does not provide. ` +
        `Add "use node" at the top of that file (actions only) or remove the import.`
      );
    }
    return `${where}: ${e.text}`;
  });
  return `Bundling ${functionsDir} failed:\n  ${lines.join("\n  ")}`;
}
