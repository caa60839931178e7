#!/usr/bin/env node
// Prints the code-shape measures of convex/ and src/: import cycles, long comment blocks,
// comments pointing at documents outside the repo, and deep relative imports of convex/.
// Usage: node scripts/codeMeasures.mjs [--json]
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SOURCE = /\.(ts|tsx|mjs)$/;

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "_generated" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (SOURCE.test(entry.name)) out.push(full);
  }
  return out;
}

const IMPORT = /(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Strongly connected components with more than one file (Tarjan), as lists of paths. */
export function importCycles(files) {
  const graph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    const targets = new Set();
    for (const match of text.matchAll(IMPORT)) {
      // Type-only imports vanish at runtime but still tie modules together; count them too.
      const target = resolveImport(file, match[1] ?? match[2]);
      if (target !== null && files.includes(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.map((f) => path.relative(root, f)).sort());
    }
  };
  for (const file of files) if (!indexOf.has(file)) visit(file);
  return cycles;
}

/** Comment blocks of at least `min` lines (a JSDoc/block comment, or consecutive // lines). */
export function longComments(files, min = 10) {
  const found = [];
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    let start = -1;
    let inBlock = false;
    let lineRun = 0;
    lines.forEach((line, i) => {
      const t = line.trim();
      if (inBlock) {
        if (t.includes("*/")) {
          inBlock = false;
          if (i - start + 1 >= min) found.push(`${path.relative(root, file)}:${start + 1} (${i - start + 1} lines)`);
        }
        return;
      }
      if (t.startsWith("/*") && !t.includes("*/")) {
        inBlock = true;
        start = i;
        return;
      }
      if (t.startsWith("//")) {
        lineRun += 1;
        if (lineRun === 1) start = i;
      } else {
        if (lineRun >= min) found.push(`${path.relative(root, file)}:${start + 1} (${lineRun} lines)`);
        lineRun = 0;
      }
    });
  }
  return found;
}

const DOC_REF = /part [12] §|spec §|§\d/i;

export function measure() {
  const convexFiles = walk(path.join(root, "convex"));
  const srcFiles = walk(path.join(root, "src"));
  const all = [...convexFiles, ...srcFiles, ...walk(path.join(root, "tests")), ...walk(path.join(root, "scripts"))];
  const docRefs = [];
  const deepConvexImports = [];
  for (const file of all) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      const t = line.trim();
      const isComment = t.startsWith("//") || t.startsWith("*") || t.startsWith("/*") || t.includes("{/*");
      if (isComment && DOC_REF.test(t)) docRefs.push(`${path.relative(root, file)}:${i + 1}`);
      if (/from\s+["'](\.\.\/)+convex\//.test(line)) deepConvexImports.push(`${path.relative(root, file)}:${i + 1}`);
    });
  }
  return {
    convexCycles: importCycles(convexFiles),
    srcCycles: importCycles(srcFiles),
    longComments: longComments([...convexFiles, ...srcFiles]),
    docRefs,
    deepConvexImports,
  };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const m = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(m, null, 2));
  else {
    console.log(`import cycles in convex/: ${m.convexCycles.length}`);
    for (const c of m.convexCycles) console.log(`  ${c.join(" <-> ")}`);
    console.log(`import cycles in src/: ${m.srcCycles.length}`);
    for (const c of m.srcCycles) console.log(`  ${c.join(" <-> ")}`);
    console.log(`comment blocks of 10+ lines in convex/ and src/: ${m.longComments.length}`);
    console.log(`comments pointing at the spec documents: ${m.docRefs.length}`);
    console.log(`relative imports of convex/ from outside it: ${m.deepConvexImports.length}`);
  }
}
