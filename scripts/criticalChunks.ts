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
  imports: Import[];
  /** `export { local as exported } from "id"`. */
  reexports: { id: string; local: string; exported: string }[];
  /** `export * from "id"` (as undefined) and `export * as ns from "id"`. */
  stars: { id: string; as: string | undefined }[];
  /** The names this module exports, or null when unknown (CommonJS, or an `export *` of its own). */
  exports: Set<string> | null;
  /** False when a plugin or the module's package declares it free of side effects. */
  sideEffects: boolean;
  /**
   * For a module free of side effects: the imports its top-level code needs
   * (`roots`) and those each export's declaration needs, so a module taken for
   * one function does not bring what only its other exports use. Null: every import counts.
   */
  precise: { roots: Import[]; byExport: Map<string, Import[]> } | null;
};

type Import = { id: string; names: Wanted };

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
  const links: ModuleLinks = {
    imports: [],
    reexports: [],
    stars: [],
    exports: null,
    sideEffects: true,
    precise: null,
  };
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
  // A non-barrel module's imports by local name, and those imported for their effects only.
  const importLocals = new Map<string, Import>();
  const bare: Import[] = [];
  for (const node of body) {
    if (node.type === "ImportDeclaration") {
      const target = await resolve(node.source.value);
      if (!target) continue;
      let names: Wanted = new Set();
      if (node.specifiers.length === 0) bare.push({ id: target, names: "all" });
      for (const spec of node.specifiers) {
        const imported =
          spec.type === "ImportNamespaceSpecifier"
            ? "*"
            : spec.type === "ImportDefaultSpecifier"
              ? "default"
              : nameOf(spec.imported);
        importLocals.set(spec.local.name, { id: target, names: imported === "*" ? "all" : new Set([imported]) });
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
  const unaccounted = info.importedIds.filter((other) => !accounted.has(other));
  for (const other of unaccounted) links.imports.push({ id: other, names: "all" });
  if (!barrel && !links.sideEffects && program) {
    const { roots, byExport } = exportNeeds(body);
    const importsOf = (locals: Set<string>) => [...locals].flatMap((local) => importLocals.get(local) ?? []);
    links.precise = {
      roots: [...bare, ...unaccounted.map((id) => ({ id, names: "all" as const })), ...importsOf(roots)],
      byExport: new Map([...byExport].map(([name, locals]) => [name, importsOf(locals)])),
    };
  }
  return links;
}

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/** Every identifier name in a node (scopes ignored: a name too many only keeps an import). */
function namesIn(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) namesIn(item, out);
  else if (isNode(node)) {
    if (node.type === "Identifier" || node.type === "JSXIdentifier") out.add(node.name as string);
    for (const [key, value] of Object.entries(node))
      if (key !== "type" && typeof value === "object") namesIn(value, out);
  }
  return out;
}

const EFFECTS = new Set([
  "CallExpression",
  "NewExpression",
  "TaggedTemplateExpression",
  "AssignmentExpression",
  "UpdateExpression",
  "AwaitExpression",
  "YieldExpression",
  "MemberExpression",
  "ImportExpression",
  "StaticBlock",
  "Decorator",
]);

/** Whether evaluating a node may do something (function bodies do nothing until called). */
function mayRun(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(mayRun);
  if (!isNode(node)) return false;
  if (EFFECTS.has(node.type)) return true;
  if (node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression") return false;
  // Methods and instance fields run later; static fields and blocks run with the class.
  if ((node.type === "MethodDefinition" || node.type === "PropertyDefinition") && !node.static) return false;
  return Object.entries(node).some(([key, value]) => key !== "type" && typeof value === "object" && mayRun(value));
}

/**
 * For a module's top level: the names its statements that always run use
 * (`roots`), and for each export, the names its declaration uses, each followed
 * through the module's own declarations.
 */
function exportNeeds(body: unknown[]): { roots: Set<string>; byExport: Map<string, Set<string>> } {
  const declared = new Map<string, Set<string>>();
  const exported = new Map<string, string>();
  const roots = new Set<string>();
  const declare = (node: Node, exportIt: boolean) => {
    if (node.type === "VariableDeclaration") {
      for (const declarator of node.declarations as Node[]) {
        const uses = namesIn(declarator.init);
        for (const name of namesIn(declarator.id)) {
          declared.set(name, uses);
          if (exportIt) exported.set(name, name);
        }
        if (mayRun(declarator.init)) namesIn(declarator.init, roots);
      }
    } else if ((node.type === "FunctionDeclaration" || node.type === "ClassDeclaration") && isNode(node.id)) {
      const name = node.id.name as string;
      declared.set(name, namesIn(node));
      if (exportIt) exported.set(name, name);
      if (node.type === "ClassDeclaration" && (mayRun(node.superClass) || mayRun(node.body))) namesIn(node, roots);
    } else namesIn(node, roots);
  };
  for (const node of body) {
    if (!isNode(node) || node.type === "ImportDeclaration" || node.type === "ExportAllDeclaration") continue;
    if (node.type === "ExportNamedDeclaration") {
      if (node.source) continue;
      if (isNode(node.declaration)) declare(node.declaration, true);
      for (const spec of node.specifiers as Node[])
        exported.set(nameOf(spec.exported as Node), nameOf(spec.local as Node));
    } else if (node.type === "ExportDefaultDeclaration") {
      const declaration = node.declaration as Node;
      if (isNode(declaration.id)) {
        declare(declaration, false);
        exported.set("default", declaration.id.name as string);
      } else {
        declared.set("\0default", namesIn(declaration));
        exported.set("default", "\0default");
        if (mayRun(declaration)) namesIn(declaration, roots);
      }
    } else declare(node, false);
  }
  const follow = (start: Iterable<string>) => {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push(...(declared.get(name) ?? []));
    }
    return seen;
  };
  const byExport = new Map([...exported].map(([name, local]) => [name, follow([local])]));
  return { roots: follow(roots), byExport };
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
      queue.push(...(own.precise ? own.precise.roots : own.imports));
      for (const r of [...own.reexports, ...own.stars]) queue.push({ id: r.id, names: new Set(), optional: true });
    }
    if (own.precise) {
      // Each export taken: the imports its declaration needs. A name passed on from
      // another module is followed below; any other unknown name takes them all.
      const passedOn = (name: string) => own.stars.length > 0 || own.reexports.some((r) => r.exported === name);
      if (fresh === "all") queue.push(...own.imports);
      else {
        for (const name of fresh) {
          queue.push(...(own.precise.byExport.get(name) ?? (passedOn(name) ? [] : own.imports)));
        }
      }
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

/** The chunk of the modules the critical code imports only for exports it does not use. */
export const LATER_CHUNK = "critical-later";

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
 * more chunk they both load, so neither loads the other's. A module of a package
 * free of side effects counts only for what the exports taken from it use (a
 * module taken for one function does not bring what only its other exports
 * import); what the critical code reaches only through the rest goes to one more
 * chunk, which later pages load (Convex's validators). Other pages keep
 * the default split; a module a route shares with another page moves to the
 * route's chunk (or the shared one), which that page then loads too.
 */
export function criticalChunks(routes: readonly CriticalRoute[]): Plugin {
  const chunkNames = new Set([...routes.map((r) => r.chunk), SHARED_CHUNK, LATER_CHUNK]);
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
      // What they reach only through exports they do not take (Convex's validators, for one) gets
      // a chunk of its own, loaded by the later code that uses it, not the bundler's pick.
      const whole = async (id: string) => ({ ...(await links(id)), precise: null });
      const reached = await staticClosure([...entries, ...closures.map((c) => c.page)], whole);
      for (const id of reached)
        if (!chunkOf.has(id) && !closures.some((c) => c.page === id)) chunkOf.set(id, LATER_CHUNK);
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
