import fs from "node:fs";
import path from "node:path";
import type { CodeSplittingOptions, OutputChunk, PluginContext } from "rolldown";
import { parseAst } from "rolldown/parseAst";
import type { Plugin } from "vite";
import type { CriticalRoute } from "./criticalRoutes.ts";

/** Export names a module is asked for; "all" for a namespace import or an unknown use. */
type Wanted = Set<string> | "all";

/** What one module asks of the modules it imports. */
type ModuleLinks = {
  /** Modules whose code runs whenever this one is used, with the names taken from them. */
  imports: { id: string; names: Wanted }[];
  /** `export { local as exported } from "id"`. */
  reexports: { id: string; local: string; exported: string }[];
  /** `export * from "id"` (as undefined) and `export * as ns from "id"`. */
  stars: { id: string; as: string | undefined }[];
  /** The names this module exports, or null when unknown (CommonJS, or an `export *` of its own). */
  exports: Set<string> | null;
  /** False when a plugin or the module's package declares it free of side effects. */
  sideEffects: boolean;
};

const nameOf = (node: { type: string; name?: string; value?: unknown }): string =>
  node.type === "Identifier" ? node.name! : String(node.value);

// A `sideEffects` glob as a regular expression: "**" + "/" any folders, "*" and "?" within one name.
const WILDCARDS: Record<string, string> = { "**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]" };
function globToRegExp(glob: string): RegExp {
  const parts = glob.replace(/^\.\//, "").split(/(\*\*\/|\*\*|\*|\?)/);
  const source = parts.map((part) => WILDCARDS[part] ?? part.replace(/[.+^$(){}|[\]\\]/g, "\\$&")).join("");
  return new RegExp("^" + source + "$");
}

const packageCache = new Map<string, { dir: string; sideEffects: unknown } | null>();

/** The package.json nearest to a file inside node_modules, with its directory. */
function packageOf(file: string): { dir: string; sideEffects: unknown } | null {
  const dir = path.dirname(file);
  if (!packageCache.has(dir)) {
    let found: { dir: string; sideEffects: unknown } | null = null;
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      const json = JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string; sideEffects?: unknown };
      // Nested package.json files without a name (e.g. { "type": "module" }) only set the format.
      if (json.name) found = { dir, sideEffects: json.sideEffects ?? true };
    }
    if (!found && path.basename(dir) !== "node_modules" && path.dirname(dir) !== dir) found = packageOf(dir);
    packageCache.set(dir, found);
  }
  return packageCache.get(dir)!;
}

/**
 * Whether running the module may have effects, by its package's `sideEffects`
 * field (as bundlers read it); true for the app's own modules and virtual ones.
 */
function hasSideEffects(id: string): boolean {
  if (!path.isAbsolute(id) || !id.includes(`${path.sep}node_modules${path.sep}`)) return true;
  const pkg = packageOf(id);
  if (!pkg) return true;
  if (typeof pkg.sideEffects === "boolean") return pkg.sideEffects;
  if (!Array.isArray(pkg.sideEffects)) return true;
  const relative = path.relative(pkg.dir, id).split(path.sep).join("/");
  return pkg.sideEffects.some((glob: string) =>
    glob.includes("/") ? globToRegExp(glob).test(relative) : globToRegExp(glob).test(path.posix.basename(relative)),
  );
}

/**
 * What a module imports, from its final code: each import declaration with the
 * names it takes, each re-export with the names it passes on. Any module id the
 * bundler records that no declaration accounts for (a require() in CommonJS, an
 * import a plugin added) counts as used whole.
 */
async function linksOf(ctx: PluginContext, id: string): Promise<ModuleLinks> {
  const info = ctx.getModuleInfo(id);
  const links: ModuleLinks = { imports: [], reexports: [], stars: [], exports: null, sideEffects: true };
  if (!info) return links;
  if (info.exports.length > 0 && !info.exports.includes("*")) links.exports = new Set(info.exports);
  links.sideEffects = info.moduleSideEffects === null ? hasSideEffects(id) : info.moduleSideEffects !== false;
  const recorded = new Set(info.importedIds);
  const accounted = new Set<string>();
  const resolve = async (source: string): Promise<string | null> => {
    const resolved = await ctx.resolve(source, id);
    if (!resolved || !recorded.has(resolved.id)) return null;
    accounted.add(resolved.id);
    return resolved.id;
  };
  let program;
  try {
    program = info.code ? parseAst(info.code, { lang: "js", sourceType: "module" }) : null;
  } catch {
    program = null;
  }
  const body = program?.body ?? [];
  // A barrel holds nothing but imports and exports (Radix Themes' index imports each
  // component and exports the bindings): its imports count only through its exports.
  const barrel = body.every(
    (node) =>
      node.type === "ImportDeclaration" ||
      node.type === "ExportAllDeclaration" ||
      (node.type === "ExportNamedDeclaration" && !node.declaration),
  );
  const bindings = new Map<string, { id: string; imported: string | "*" }>();
  for (const node of body) {
    if (node.type === "ImportDeclaration") {
      const target = await resolve(node.source.value);
      if (!target) continue;
      let names: Wanted = new Set();
      for (const spec of node.specifiers) {
        const imported =
          spec.type === "ImportNamespaceSpecifier"
            ? "*"
            : spec.type === "ImportDefaultSpecifier"
              ? "default"
              : nameOf(spec.imported);
        if (barrel) bindings.set(spec.local.name, { id: target, imported });
        else if (imported === "*") names = "all";
        else if (names !== "all") names.add(imported);
      }
      if (!barrel || node.specifiers.length === 0) links.imports.push({ id: target, names });
    } else if (node.type === "ExportNamedDeclaration" && node.source) {
      const target = await resolve(node.source.value);
      if (!target) continue;
      for (const spec of node.specifiers) {
        links.reexports.push({ id: target, local: nameOf(spec.local), exported: nameOf(spec.exported) });
      }
    } else if (node.type === "ExportAllDeclaration") {
      const target = await resolve(node.source.value);
      if (target) links.stars.push({ id: target, as: node.exported ? nameOf(node.exported) : undefined });
    }
  }
  const exported = new Set<string>();
  for (const node of body) {
    if (node.type !== "ExportNamedDeclaration" || node.source) continue;
    for (const spec of node.specifiers) {
      const binding = bindings.get(nameOf(spec.local));
      if (!binding) continue;
      exported.add(nameOf(spec.local));
      if (binding.imported === "*") links.stars.push({ id: binding.id, as: nameOf(spec.exported) });
      else links.reexports.push({ id: binding.id, local: binding.imported, exported: nameOf(spec.exported) });
    }
  }
  for (const [local, binding] of bindings) {
    if (!exported.has(local)) {
      links.imports.push({ id: binding.id, names: binding.imported === "*" ? "all" : new Set([binding.imported]) });
    }
  }
  for (const other of info.importedIds) if (!accounted.has(other)) links.imports.push({ id: other, names: "all" });
  return links;
}

/**
 * The modules whose code runs when `starts` are loaded: its static imports,
 * followed through re-exports only for the names actually imported. A barrel
 * such as `@radix-ui/themes` re-exports every component; following all of its
 * imports would count every component of every page as part of this one.
 */
async function staticClosure(starts: string[], links: (id: string) => Promise<ModuleLinks>): Promise<Set<string>> {
  const wanted = new Map<string, Wanted>();
  // `optional`: reached through a re-export (`export *`, or a barrel run for its
  // side effects), which asks only for the names the module has, and not at all
  // for a module without side effects.
  const queue: { id: string; names: Wanted; optional?: boolean }[] = starts.map((id) => ({ id, names: "all" }));
  while (queue.length > 0) {
    const item = queue.shift()!;
    const { id, optional } = item;
    const own = await links(id);
    const names =
      optional && item.names !== "all" && own.exports
        ? new Set([...item.names].filter((n) => own.exports!.has(n)))
        : item.names;
    const before = wanted.get(id);
    if (before === "all") continue;
    const fresh: Wanted = names === "all" ? "all" : new Set([...names].filter((n) => !before?.has(n)));
    if (fresh !== "all" && fresh.size === 0 && (before || (optional && !own.sideEffects))) continue;
    wanted.set(id, fresh === "all" ? "all" : new Set([...(before ?? []), ...fresh]));
    if (!before) {
      queue.push(...own.imports);
      for (const r of [...own.reexports, ...own.stars]) queue.push({ id: r.id, names: new Set(), optional: true });
    }
    const asked = (name: string) => fresh === "all" || fresh.has(name);
    for (const r of own.reexports) if (asked(r.exported)) queue.push({ id: r.id, names: new Set([r.local]) });
    for (const s of own.stars) {
      if (s.as === undefined) queue.push({ id: s.id, names: fresh, optional: true });
      else if (asked(s.as)) queue.push({ id: s.id, names: "all" });
    }
  }
  return new Set(wanted.keys());
}

/** The chunk of the modules two or more critical routes use (and the entry does not). */
export const SHARED_CHUNK = "critical-shared";

/** The id of rolldown's runtime helpers, which every chunk may import. */
const RUNTIME = "\0rolldown/runtime.js";

/**
 * The entry's static imports (and rolldown's runtime) in the entry chunk, and
 * each given route's static imports beyond the entry's in one chunk per route
 * (named by its `chunk`; scripts/criticalRoutes.ts). The default split gives every set of pages sharing
 * modules its own chunk: /scene loaded 32 files, and over HTTP/1.1 (six
 * connections per host) they arrived in rounds of six. The module sets are
 * worked out once the module graph is complete (buildEnd), following only the
 * names each import takes, then handed to rolldown's manual code splitting,
 * which runs later in the same build: each module still belongs to exactly one
 * chunk. Modules two of these routes use (and the entry does not) go to one
 * more chunk they both load, so neither loads the other's. Other pages keep
 * the default split; a module a route shares with another page moves to the
 * route's chunk (or the shared one), which that page then loads too.
 */
export function criticalChunks(routes: readonly CriticalRoute[]): Plugin {
  const chunkNames = new Set([...routes.map((r) => r.chunk), SHARED_CHUNK]);
  const chunkOf = new Map<string, string>();
  let root = process.cwd();
  const codeSplitting: CodeSplittingOptions = {
    // Without includeDependenciesRecursively: false, a captured barrel would bring
    // in every module it imports, used or not.
    // (debugName only labels the group in rolldown's timing report, and quiets its warning.)
    groups: [
      { name: (id) => chunkOf.get(id) ?? null, debugName: "critical-chunks", includeDependenciesRecursively: false },
    ],
  };
  return {
    name: "critical-chunks",
    apply: "build",
    config: () => ({ build: { rolldownOptions: { output: { codeSplitting } } } }),
    configResolved(config) {
      root = config.root;
    },
    async buildEnd(error) {
      chunkOf.clear();
      if (error) return;
      const ctx = this as unknown as PluginContext;
      const cache = new Map<string, Promise<ModuleLinks>>();
      const links = (id: string) => {
        if (!cache.has(id)) cache.set(id, linksOf(ctx, id));
        return cache.get(id)!;
      };
      const entries = [...ctx.getModuleIds()].filter((id) => ctx.getModuleInfo(id)?.isEntry);
      for (const id of [...(await staticClosure(entries, links)), RUNTIME]) chunkOf.set(id, "index");
      const closures: { name: string; page: string; ids: Set<string> }[] = [];
      for (const { chunk: name, module } of routes) {
        const page = path.resolve(root, module);
        if (!ctx.getModuleInfo(page)) throw new Error(`critical-chunks: no module ${module}`);
        closures.push({ name, page, ids: await staticClosure([page], links) });
      }
      // A module two of these pages use goes to one chunk they share, so neither loads the other's.
      const users = new Map<string, number>();
      for (const { ids } of closures) for (const id of ids) users.set(id, (users.get(id) ?? 0) + 1);
      for (const { name, page, ids } of closures) {
        for (const id of ids) {
          // The page itself stays the facade of its own chunk (route-preload finds it by that).
          if (id !== page && !chunkOf.has(id)) chunkOf.set(id, users.get(id)! > 1 ? SHARED_CHUNK : name);
        }
      }
    },
    generateBundle(_options, bundle) {
      // A module the analysis missed lands in a chunk of its own, which the
      // critical chunks then import: still correct, but one more request.
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === "chunk");
      const expected = new Set(chunks.filter((c) => c.isEntry || chunkNames.has(c.name)).map((c) => c.fileName));
      for (const chunk of chunks) {
        const critical =
          chunk.isEntry ||
          chunkNames.has(chunk.name) ||
          routes.some((r) => chunk.facadeModuleId === path.resolve(root, r.module));
        const extra = critical ? chunk.imports.filter((f) => !expected.has(f)) : [];
        if (extra.length > 0) this.warn(`critical-chunks: ${chunk.fileName} also imports ${extra.join(", ")}`);
      }
    },
  };
}
