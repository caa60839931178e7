/**
 * Loads `convex-test` with a few of its internals exported.
 *
 * `convex-test` keeps its database (`DatabaseFake`), transaction manager and
 * scheduler private. The backend needs them to persist commits, restore
 * documents with their exact ids, track the tables a query reads and restart
 * scheduled functions. Rather than patching node_modules, we read the pinned
 * dist file, apply a handful of anchored text edits (each one must match
 * exactly once, or loading fails loudly), and import the result from a temp
 * file whose imports point back at the installed packages.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export const CONVEX_TEST_VERSION = "0.0.60";

const require = createRequire(import.meta.url);

type Edit = { find: string; replace: string; why: string };

const EDITS: Edit[] = [
  {
    why: "HTTP actions see the real site URL instead of a placeholder host",
    find: "const url = new URL(`https://some.convex.site${path}`);",
    replace: "const url = new URL(`${globalThis.__localBackendSiteUrl ?? \"https://some.convex.site\"}${path}`);",
  },
  {
    why: "the _storage system document keeps the file's content type, as in Convex",
    find: "sha256: await blobSha(blob),\n",
    replace: "sha256: await blobSha(blob),\n                        ...(blob.type ? { contentType: blob.type } : {}),\n",
  },
  {
    why: "setTimeout overflows past ~24.8 days; scheduled functions further out must still wait",
    find: "function frameworkSetTimeout(cb, ms) {\n",
    replace:
      "function frameworkSetTimeout(cb, ms) {\n    if (ms > 2 ** 31 - 1) return globalOverridesStorage.exit(() => globalThis.setTimeout(() => frameworkSetTimeout(cb, ms - (2 ** 31 - 1)), 2 ** 31 - 1));\n",
  },
  {
    why: "the commit hook stores a client mutation's result with its writes (retried mutations are not re-applied)",
    find: "const commitTs = transactionManager.commit(isNested);\n",
    replace:
      "globalThis.__localBackendMutationResult = rawResult;\n            const commitTs = transactionManager.commit(isNested);\n",
  },
];

const EXPORTS =
  "\nexport { DatabaseFake, TransactionManager, convexGlobalStorage, runScheduledFunction, " +
  "executionContextStorage, withAuth, AuthFake, " +
  // For IndexedDatabase (indexedDatabase.ts): the query semantics it must match.
  "evaluateFieldPath, evaluateFilter, evaluateRangeFilter, evaluateQueryValue, " +
  "validateIndexRangeExpression, resolveCommittedValues, tableNameFromId };\n";

let loaded: Promise<any> | null = null;

/** The `convex-test` module plus the internals listed in EXPORTS. */
export function loadConvexTest(): Promise<any> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<any> {
  const pkgJsonPath = require.resolve("convex-test/package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgJsonPath, "utf8"));
  if (pkg.version !== CONVEX_TEST_VERSION) {
    throw new Error(
      `local-backend needs convex-test ${CONVEX_TEST_VERSION} exactly (found ${pkg.version}); ` +
        `update local-backend/src/convexTestLoader.ts after checking its edits still apply.`,
    );
  }
  const distDir = path.join(path.dirname(pkgJsonPath), "dist");
  let source = fs.readFileSync(path.join(distDir, "index.js"), "utf8");
  for (const edit of EDITS) {
    const count = source.split(edit.find).length - 1;
    if (count !== 1) {
      throw new Error(`convex-test edit (${edit.why}) matched ${count} times; expected once`);
    }
    source = source.replace(edit.find, () => edit.replace);
  }
  // Resolve the module's own imports to the installed files, so it shares the
  // `convex` package instance with the rest of the backend.
  const convexServer = import.meta.resolve("convex/server");
  const convexValues = import.meta.resolve("convex/values");
  source = source
    .replace('from "convex/server";', () => `from ${JSON.stringify(convexServer)};`)
    .replace('from "convex/values";', () => `from ${JSON.stringify(convexValues)};`)
    .replace('from "./transactionMetrics.js";', () =>
      `from ${JSON.stringify(pathToFileURL(path.join(distDir, "transactionMetrics.js")).href)};`,
    );
  source += EXPORTS;
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `local-backend-convex-test-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, source);
    fs.renameSync(tmp, file);
  }
  return await import(pathToFileURL(file).href);
}
