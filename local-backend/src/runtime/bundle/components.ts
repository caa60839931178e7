/**
 * Convex components: reads `convex.config.ts` the way the Convex CLI does and
 * returns the tree of installed components, each with its path (the
 * `componentPath` Convex gives it: "rateLimiter", "rateLimiter/batchWorker"),
 * the folder its functions and schema live in, and how its parent imported it.
 *
 * A config file is bundled with esbuild; every `convex.config` import it makes
 * that resolves to a folder holding a component is replaced by a stub carrying
 * `componentDefinitionPath` and `defaultName`, the two properties that
 * `app.use()` / `component.use()` read (the CLI's bundler and Convex's
 * evaluator provide the same). The bundle is then evaluated, and its default
 * export's `_childComponents` name the children. Used by `scripts/codegen.mjs`
 * (the `components` object of `_generated/api`) and by the bundler (each
 * component's functions are bundled into their own namespace).
 */
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { findUp } from "../../common/index.js";

export type ComponentNode = {
  /** The name the parent installed it under ("" for the app). */
  name: string;
  /** Convex's component path: names from the app down, joined with "/" ("" for the app). */
  path: string;
  /** Absolute folder of its functions, schema and `convex.config`. */
  dir: string;
  /** The module specifier its parent's `convex.config` imported it with. */
  importSpecifier: string | null;
  children: ComponentNode[];
};

const OWN_NODE_MODULES = findUp(import.meta.url, "node_modules");
const CONFIG_NAMES = ["convex.config.ts", "convex.config.js"];

type Definition = {
  name: string | null;
  children: { name: string; dir: string; importSpecifier: string }[];
};

export class ComponentConfigError extends Error {}

function configFileIn(dir: string): string | null {
  for (const name of CONFIG_NAMES) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** Evaluates one config file; children's names come from their own (cached) evaluation. */
async function analyze(
  configFile: string,
  cache: Map<string, Promise<Definition>>,
  stack: string[],
): Promise<Definition> {
  const dir = path.dirname(configFile);
  if (stack.includes(dir)) throw new ComponentConfigError(`Component cycle: ${[...stack, dir].join(" -> ")}`);
  let pending = cache.get(dir);
  if (!pending) {
    pending = evaluate(configFile, cache, [...stack, dir]);
    cache.set(dir, pending);
  }
  return await pending;
}

async function evaluate(
  configFile: string,
  cache: Map<string, Promise<Definition>>,
  stack: string[],
): Promise<Definition> {
  const imports = new Map<string, string>(); // child dir -> specifier
  const plugin: esbuild.Plugin = {
    name: "local-backend-components",
    setup(build) {
      build.onResolve({ filter: /convex\.config/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData?.inner) return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: { inner: true },
        });
        if (result.errors.length > 0 || !result.path) return undefined;
        const childDir = path.dirname(result.path);
        if (!configFileIn(childDir) && !/convex\.config\.[jt]s$/.test(result.path)) return undefined;
        imports.set(childDir, args.path);
        return { path: result.path, namespace: "component-definition" };
      });
      build.onLoad({ filter: /.*/, namespace: "component-definition" }, async (args) => {
        const child = await analyze(args.path, cache, stack);
        const stub = { componentDefinitionPath: path.dirname(args.path), defaultName: child.name };
        return { contents: `export default ${JSON.stringify(stub)};`, loader: "js" };
      });
    },
  };
  let code: string;
  try {
    const out = await esbuild.build({
      entryPoints: [configFile],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "esnext",
      logLevel: "silent",
      conditions: ["convex", "module"],
      nodePaths: [OWN_NODE_MODULES],
      plugins: [plugin],
    });
    code = out.outputFiles[0].text;
  } catch (error) {
    const errors: esbuild.Message[] = (error as esbuild.BuildFailure)?.errors ?? [];
    const text = errors.map((e) => `${e.location?.file ?? configFile}: ${e.text}`).join("\n  ") || String(error);
    throw new ComponentConfigError(`Bundling ${configFile} failed:\n  ${text}`);
  }
  let def: { _childComponents?: unknown; _isRoot?: boolean; _name?: string } | undefined;
  try {
    def = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)).default;
  } catch (error) {
    throw new ComponentConfigError(`${configFile} threw: ${(error as Error).message ?? String(error)}`);
  }
  if (!def || !Array.isArray(def._childComponents)) {
    throw new ComponentConfigError(
      `${configFile} must \`export default\` the result of defineApp() or defineComponent(...)`,
    );
  }
  const children = (def._childComponents as [string, { componentDefinitionPath?: unknown } | undefined][]).map(
    ([name, stub]) => {
      const dir = String(stub?.componentDefinitionPath ?? "");
      if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
        throw new ComponentConfigError(`${configFile}: invalid component name "${name}"`);
      }
      return { name, dir, importSpecifier: imports.get(dir) ?? dir };
    },
  );
  const seen = new Set<string>();
  for (const child of children) {
    if (seen.has(child.name)) throw new ComponentConfigError(`${configFile}: component "${child.name}" is used twice`);
    seen.add(child.name);
  }
  return { name: def._isRoot ? null : String(def._name ?? ""), children };
}

/** The app's component tree; an app without `convex.config.ts` has no children. */
export async function componentTree(functionsDir: string): Promise<ComponentNode> {
  const root: ComponentNode = {
    name: "",
    path: "",
    dir: path.resolve(functionsDir),
    importSpecifier: null,
    children: [],
  };
  const config = configFileIn(root.dir);
  if (!config) return root;
  const cache = new Map<string, Promise<Definition>>();
  const build = async (node: ComponentNode, configFile: string): Promise<void> => {
    const def = await analyze(configFile, cache, []);
    for (const child of def.children) {
      const childNode: ComponentNode = {
        name: child.name,
        path: node.path ? `${node.path}/${child.name}` : child.name,
        dir: child.dir,
        importSpecifier: child.importSpecifier,
        children: [],
      };
      const childConfig = configFileIn(child.dir);
      if (childConfig) await build(childNode, childConfig);
      node.children.push(childNode);
    }
  };
  await build(root, config);
  return root;
}

/** Every component below the app, parents before children. */
export function flattenComponents(root: ComponentNode): ComponentNode[] {
  const out: ComponentNode[] = [];
  const walk = (node: ComponentNode) => {
    for (const child of node.children) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}
