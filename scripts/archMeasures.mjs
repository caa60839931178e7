/**
 * The local backend's layering, measured: files per folder, imports that point back up a layer,
 * import cycles, files importing `Engine`, and `any` in types. `node scripts/archMeasures.mjs`
 * prints them; tests/local-backend/layers.test.ts holds them.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SRC = path.join(root, "local-backend", "src");

/** The layers, lowest first: a folder may import from its own layer and the ones before it. */
export const LAYERS = ["common", "storage", "database", "runtime", "engine", "auth", "sync", "http", "cli"];

const SOURCE = /\.(ts|mts|mjs)$/;
const LOCAL_BACKEND = path.dirname(SRC);

const isInside = (dir, file) => !path.relative(dir, file).startsWith("..");

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** The folder of a file relative to src ("" for the entry files at its root). */
export function folderOf(file) {
  return path.relative(SRC, path.dirname(file)).split(path.sep).join("/");
}

/** A file's layer: its top folder's place in LAYERS (the entry files at the root are above all). */
export function layerOf(file) {
  const top = folderOf(file).split("/")[0];
  return top === "" ? LAYERS.length : LAYERS.indexOf(top);
}

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, path.join(base, "index.ts")];
  return candidates.find((file) => SOURCE.test(file) && fs.existsSync(file)) ?? null;
}

/** Each import of a file: the file it names, whether only types, and the names it binds. */
function importsOf(file) {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  let anys = 0;
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) anys++;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const spec = node.moduleSpecifier.text;
      let typeOnly = node.isTypeOnly === true;
      let names = [];
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        typeOnly = clause?.isTypeOnly === true;
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) {
          names = bindings.elements.map((el) => (el.propertyName ?? el.name).text);
          if (!clause.name && bindings.elements.length > 0 && bindings.elements.every((el) => el.isTypeOnly)) {
            typeOnly = true;
          }
        }
        if (!clause) typeOnly = false;
      }
      found.push({ spec, typeOnly, names });
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push({ spec: arg.text, typeOnly: false, names: [] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return {
    anys,
    imports: found.map((imp) => ({ ...imp, target: resolveImport(file, imp.spec) })).filter((imp) => imp.target),
    // Relative imports that leave local-backend/ (the app's convex/, convex-dev/, its seed data).
    outside: found
      .filter((imp) => imp.spec.startsWith(".") && !isInside(LOCAL_BACKEND, path.resolve(path.dirname(file), imp.spec)))
      .map((imp) => imp.spec),
  };
}

/** Strongly connected components of more than one file (or a file importing itself). */
function cycles(files, edges) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const out = [];
  const strong = (file) => {
    state.set(file, { index, low: index, onStack: true });
    index++;
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!state.has(next)) {
        strong(next);
        state.get(file).low = Math.min(state.get(file).low, state.get(next).low);
      } else if (state.get(next).onStack) {
        state.get(file).low = Math.min(state.get(file).low, state.get(next).index);
      }
    }
    if (state.get(file).low === state.get(file).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (edges.get(file) ?? new Set()).has(file)) out.push(component.sort());
    }
  };
  for (const file of files) if (!state.has(file)) strong(file);
  return out;
}

const rel = (file) => path.relative(SRC, file).split(path.sep).join("/");

export function measure() {
  const files = walk(SRC).sort();
  const perFolder = new Map();
  const edges = new Map();
  const valueEdges = new Map();
  const upward = [];
  const engineImporters = [];
  const deepImports = [];
  const appImports = [];
  let anys = 0;
  for (const file of files) {
    const folder = folderOf(file);
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    const parsed = importsOf(file);
    anys += parsed.anys;
    for (const spec of parsed.outside) appImports.push(`${rel(file)} -> ${spec}`);
    edges.set(file, new Set());
    valueEdges.set(file, new Set());
    for (const imp of parsed.imports) {
      edges.get(file).add(imp.target);
      if (!imp.typeOnly) valueEdges.get(file).add(imp.target);
      if (layerOf(imp.target) > layerOf(file)) upward.push(`${rel(file)} -> ${rel(imp.target)}`);
      if (imp.names.includes("Engine")) engineImporters.push(rel(file));
      // Another top folder is reached through its index.ts only.
      const [fromTop] = folderOf(file).split("/");
      const [toTop] = folderOf(imp.target).split("/");
      if (toTop !== "" && fromTop !== toTop && path.basename(imp.target) !== "index.ts") {
        deepImports.push(`${rel(file)} -> ${rel(imp.target)}`);
      }
    }
  }
  return {
    files: files.length,
    perFolder: Object.fromEntries([...perFolder].sort()),
    upward: [...new Set(upward)],
    cycles: cycles(files, edges).map((c) => c.map(rel)),
    valueCycles: cycles(files, valueEdges).map((c) => c.map(rel)),
    engineImporters: [...new Set(engineImporters)],
    deepImports: [...new Set(deepImports)],
    appImports,
    anys,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const m = measure();
  console.log(`files in local-backend/src: ${m.files}`);
  console.log("files per folder:");
  for (const [folder, count] of Object.entries(m.perFolder))
    console.log(`  ${(folder || "(root)").padEnd(18)} ${count}`);
  console.log(`imports pointing back up a layer: ${m.upward.length}`);
  for (const line of m.upward) console.log(`  ${line}`);
  console.log(`import cycles (type imports included): ${m.cycles.length}`);
  for (const cycle of m.cycles) console.log(`  ${cycle.length} files: ${cycle.join(", ")}`);
  console.log(`import cycles (value imports only): ${m.valueCycles.length}`);
  for (const cycle of m.valueCycles) console.log(`  ${cycle.length} files: ${cycle.join(", ")}`);
  console.log(`imports leaving local-backend/ (the app's code or data): ${m.appImports.length}`);
  for (const line of m.appImports) console.log(`  ${line}`);
  console.log(`imports into another folder past its index.ts: ${m.deepImports.length}`);
  console.log(`files importing Engine: ${m.engineImporters.length}`);
  for (const file of m.engineImporters) console.log(`  ${file}`);
  console.log(`\`any\` in types: ${m.anys}`);
}
