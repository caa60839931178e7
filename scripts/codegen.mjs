#!/usr/bin/env node
// Writes convex/_generated/ offline with the Convex CLI's own templates
// (`npx convex codegen` needs a deployment to talk to; these files do not).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The templates are not in the package's exports map, so import them by file.
const templates = path.join(root, "node_modules/convex/dist/esm/cli/codegen_templates");
const load = (name) => import(pathToFileURL(path.join(templates, name)).href);
const { apiCodegen } = await load("api.js");
const { serverCodegen } = await load("server.js");
const { header } = await load("common.js");
const { apiComment } = await load("common.js");
/** The CLI's `componentApiJs()` (its template module pulls in CLI-only packages). */
const componentApiJs = () => `${header("Generated `api` utility.")}
import { anyApi, componentsGeneric } from "convex/server";

${apiComment("api", undefined)}
export const api = anyApi;
export const internal = anyApi;
export const components = componentsGeneric();
`;
// The component tree comes from the local backend's reading of convex.config.ts
// (TypeScript, loaded through tsx).
const { tsImport } = await import("tsx/esm/api");
const { componentTree } = await tsImport(
  pathToFileURL(path.join(root, "local-backend/src/runtime/bundle/components.ts")).href,
  import.meta.url,
);

/** The CLI's "dynamic" data model (types inferred from schema.ts); its template
 * module pulls in CLI-only packages, so its text is reproduced here. */
const dataModelDTS = `${header("Generated data model types.")}
import type { DataModelFromSchemaDefinition, DocumentByName, TableNamesInDataModel, SystemTableNames } from "convex/server";
import type { GenericId } from "convex/values";
import schema from "../schema.js";

/** The names of all of your Convex tables. */
export type TableNames = TableNamesInDataModel<DataModel>;

/** The type of a document stored in Convex. */
export type Doc<TableName extends TableNames> = DocumentByName<DataModel, TableName>;

/** An identifier for a document in Convex. */
export type Id<TableName extends TableNames | SystemTableNames> = GenericId<TableName>;

/** A type describing your Convex data model. */
export type DataModel = DataModelFromSchemaDefinition<typeof schema>;
`;
// `codegen.mjs [functionsDir] [--out dir] [--dev-out dir]`: --out and --dev-out write the
// files elsewhere (scripts/check-codegen.mjs compares such a fresh copy with the committed one).
const argv = process.argv.slice(2);
const valueOf = (flag) => {
  const at = argv.indexOf(flag);
  if (at >= 0 && !argv[at + 1]) throw new Error(`${flag} needs a directory`);
  return at >= 0 ? path.resolve(argv[at + 1]) : null;
};
const positional = argv.filter((arg, i) => !arg.startsWith("--") && !["--out", "--dev-out"].includes(argv[i - 1]));
const dir = positional[0] ? path.resolve(positional[0]) : path.join(root, "convex");
const out = valueOf("--out") ?? path.join(dir, "_generated");
// The dev tools beside the functions folder (convex-dev/: seeding, test fixtures), which the
// local backend and the tests load on top of it (local-backend/src/runtime/bundle/devFunctions.ts).
const devDir = path.join(path.dirname(dir), `${path.basename(dir)}-dev`);
const devOut = fs.existsSync(devDir) ? (valueOf("--dev-out") ?? path.join(devDir, "_generated")) : null;

/** The same files `convex deploy` treats as function modules. */
function modulePaths(base, rel = "") {
  const found = [];
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
  return found;
}

const mods = modulePaths(dir).sort();
fs.mkdirSync(out, { recursive: true });
const api = apiCodegen(mods, { useTypeScript: false });
// With a convex.config.ts, `components` is added as `npx convex codegen` emits it
// for packaged components: each child's type is the `ComponentApi` its package
// ships in `_generated/component`.
const tree = await componentTree(dir);
if (fs.existsSync(path.join(dir, "convex.config.ts")) || fs.existsSync(path.join(dir, "convex.config.js"))) {
  api.JS = componentApiJs();
  const lines = tree.children.map((child) => {
    const spec = child.importSpecifier;
    const base =
      spec && !spec.startsWith(".") && !path.isAbsolute(spec)
        ? spec.replace(/\/convex\.config(\.[jt]s)?$/, "")
        : `../${path.relative(dir, child.dir).split(path.sep).join("/")}`;
    return `  "${child.name}": import("${base}/_generated/component.js").ComponentApi<"${child.name}">,`;
  });
  api.DTS += `\nexport declare const components: {\n${lines.join("\n")}\n};\n`;
}
const server = serverCodegen({ useTypeScript: false });
const files = {
  "api.js": api.JS,
  "api.d.ts": api.DTS,
  "server.js": server.JS,
  "server.d.ts": server.DTS,
  "dataModel.d.ts": dataModelDTS,
};
const write = (outDir, name, content) =>
  fs.writeFileSync(path.join(outDir, name), content.replace(/^\s+$/gm, "").trimStart() + "\n");
for (const [name, content] of Object.entries(files)) write(out, name, content);
console.log(`codegen: ${mods.length} modules, ${tree.children.length} components -> ${path.relative(root, out)}`);

// The dev folder's `api`/`internal` name its own functions (`internal.seed.run`); its modules
// use the app's `_generated/server` and data model.
if (devOut) {
  const devMods = modulePaths(devDir).sort();
  const clash = devMods.find((m) => mods.includes(m));
  if (clash)
    throw new Error(`${path.basename(devDir)}/${clash} has the same module path as ${path.basename(dir)}/${clash}`);
  fs.mkdirSync(devOut, { recursive: true });
  const devApi = apiCodegen(devMods, { useTypeScript: false });
  write(devOut, "api.js", devApi.JS);
  write(devOut, "api.d.ts", devApi.DTS);
  console.log(`codegen: ${devMods.length} dev modules -> ${path.relative(root, devOut)}`);
}

// Format like the CLI does: Prettier's defaults, not the repository's .prettierrc,
// and not skipped by .prettierignore (which leaves _generated/ to this check).
import { execFileSync } from "node:child_process";
execFileSync(
  path.join(root, "node_modules/.bin/prettier"),
  ["--write", "--no-config", "--ignore-path", "/dev/null", "--log-level", "warn", out, ...(devOut ? [devOut] : [])],
  {
    stdio: "inherit",
  },
);
