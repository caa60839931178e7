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
import { tableNameFromId, ContextSlot } from "../common/index.js";
import type { ConvexTestModule, DatabaseHandle, FunctionPath } from "../database/index.js";
import { matchesValidator } from "./validatorMatch.js";

export const CONVEX_TEST_VERSION = "0.0.60";

const require = createRequire(import.meta.url);

type Edit = { find: string; replace: string; why: string };

const EDITS: Edit[] = [
  {
    why: "its six AsyncLocalStorages are slots of the backend's one (contextSlot.mjs): each instance costs on every promise",
    find: 'import { AsyncLocalStorage } from "node:async_hooks";\n',
    replace: "const AsyncLocalStorage = globalThis.__localBackendContextSlot;\n",
  },
  {
    why: "a value that passes is accepted without throwing (validatorMatch.ts); a failure is reported by convex-test",
    find: "function validateValidator(validator, value) {\n",
    replace:
      "function validateValidator(validator, value) {\n    if (globalThis.__localBackendMatchesValidator?.(validator, value)) return;\n",
  },
  {
    why: "an extra field named like an Object.prototype member (constructor, toString) is refused, as Convex does",
    find: "                if (validator.value[k] === undefined) {\n                    throw new Error(`Validator error: Unexpected field",
    replace:
      "                if (!Object.hasOwn(validator.value, k)) {\n                    throw new Error(`Validator error: Unexpected field",
  },
  {
    why: "HTTP actions see the real site URL instead of a placeholder host",
    find: "const url = new URL(`https://some.convex.site${path}`);",
    replace: 'const url = new URL(`${globalThis.__localBackendSiteUrl ?? "https://some.convex.site"}${path}`);',
  },
  {
    why: "the _storage system document keeps the file's content type, as in Convex",
    find: "sha256: await blobSha(blob),\n",
    replace:
      "sha256: await blobSha(blob),\n                        ...(blob.type ? { contentType: blob.type } : {}),\n",
  },
  {
    why: "setTimeout overflows past ~24.8 days; scheduled functions further out must still wait",
    find: "function frameworkSetTimeout(cb, ms) {\n",
    replace:
      "function frameworkSetTimeout(cb, ms) {\n    if (ms > 2 ** 31 - 1) return globalOverridesStorage.exit(() => globalThis.setTimeout(() => frameworkSetTimeout(cb, ms - (2 ** 31 - 1)), 2 ** 31 - 1));\n",
  },
  {
    why: "document ids are Convex's (random, table number inside, see ids.ts): the table of an id comes from ids.ts",
    find: "function tableNameFromId(id) {\n",
    replace: "function tableNameFromId(id) {\n    return globalThis.__localBackendTableNameFromId(id);\n",
  },
  {
    why: "a mutation's user code time is limited (userTime.ts); over it, it fails before committing",
    find: "const rawResult = await nestedTxStorage.run(childLock, invokeInContext);\n            const commitTs",
    replace:
      'const rawResult = await (globalThis.__localBackendUserTime ?? ((_kind, _nested, run) => run()))("mutation", isNested, () => nestedTxStorage.run(childLock, invokeInContext));\n            const commitTs',
  },
  {
    why: "a query's user code time is limited (userTime.ts)",
    find: "const rawResult = await nestedTxStorage.run(childLock, invokeInContext);\n            const result = jsonToConvex(JSON.parse(rawResult));\n            if (!isNested && hasPendingValues(result))",
    replace:
      'const rawResult = await (globalThis.__localBackendUserTime ?? ((_kind, _nested, run) => run()))("query", isNested, () => nestedTxStorage.run(childLock, invokeInContext));\n            const result = jsonToConvex(JSON.parse(rawResult));\n            if (!isNested && hasPendingValues(result))',
  },
  {
    why: "an action's time is limited (userTime.ts), and its code runs in a worker thread (actionPool.ts) when the backend offers one",
    find: "const rawResult = await requestMetadataStorage.run(requestMetadata, () => authStorage.run(authForChild, () => a.invokeAction(requestMetadata.requestId, JSON.stringify(convexToJson([parseArgs(args)])))));",
    replace:
      'const rawResult = await (globalThis.__localBackendUserTime ?? ((_kind, _nested, run) => run()))("action", false, () => requestMetadataStorage.run(requestMetadata, () => authStorage.run(authForChild, () => globalThis.__localBackendInvokeAction?.(functionPath, requestMetadata.requestId, JSON.stringify(convexToJson([parseArgs(args)]))) ?? a.invokeAction(requestMetadata.requestId, JSON.stringify(convexToJson([parseArgs(args)]))))));',
  },
  {
    why: "an HTTP action's code runs in a worker thread (actionPool.ts) when the backend offers one, with the caller's identity, under an action's time limit (userTime.ts)",
    find: "const response = await executionContextStorage.run(httpCtx, () => requestMetadataStorage.run(requestMetadata, () => a.invokeHttpAction(new Request(url, init))));",
    replace:
      'const response = await (globalThis.__localBackendUserTime ?? ((_kind, _nested, run) => run()))("action", false, () => executionContextStorage.run(httpCtx, () => requestMetadataStorage.run(requestMetadata, () => authStorage.run(auth, () => globalThis.__localBackendInvokeHttpAction?.(url.href, init, requestMetadata.requestId)) ?? a.invokeHttpAction(new Request(url, init)))));',
  },
  {
    why: "a query counts its index range once per transaction, as Convex's read set merges equal ranges",
    find: "tracker?.trackIndexRange();\n                const queryId = db.startQuery(query);",
    replace:
      "tracker?.trackIndexRange(JSON.stringify(query.source));\n                const queryId = db.startQuery(query);",
  },
  {
    why: "a db.get counts its document's range once per transaction, as Convex's read set merges equal ranges",
    find: "tracker?.trackIndexRange();\n                const doc = getAndTrack(table, id);",
    replace: "tracker?.trackIndexRange(`get:${id}`);\n                const doc = getAndTrack(table, id);",
  },
  {
    why: "the commit hook stores a client mutation's result with its writes (retried mutations are not re-applied)",
    find: "const commitTs = transactionManager.commit(isNested);\n",
    replace:
      "globalThis.__localBackendMutationResult = rawResult;\n            const commitTs = transactionManager.commit(isNested);\n",
  },
  {
    why: "a scheduled mutation's job status is written in the mutation's own transaction (scheduledJobs.ts runJob)",
    find: "globalThis.__localBackendMutationResult = rawResult;\n",
    replace:
      "globalThis.__localBackendMutationResult = rawResult;\n            globalThis.__localBackendBeforeCommit?.(isNested);\n",
  },
  {
    why: "a top-level commit is written to the data log before it is applied (componentStore.ts): if that fails, nothing of it is visible and the caller rolls back",
    find: "            this._lastCommitTs = commitTs;\n",
    replace: "            this._localBackendBeforeApply?.(commitTs);\n            this._lastCommitTs = commitTs;\n",
  },
  {
    why: "after a failed write to the data log, a mutation is refused before it begins (commits.ts)",
    find: "await transactionManager.begin(isNested, transactionLimits);\n        try {\n            const childLock = new NestedLock();\n            const invokeRaw = () => m.invokeMutation",
    replace:
      "globalThis.__localBackendBeforeMutation?.(isNested);\n        await transactionManager.begin(isNested, transactionLimits);\n        try {\n            const childLock = new NestedLock();\n            const invokeRaw = () => m.invokeMutation",
  },
  {
    why: "a top-level mutation runs as attempts (occ.ts): one that conflicts is rolled back and run again",
    find: "globalThis.__localBackendBeforeMutation?.(isNested);\n        await transactionManager.begin(isNested, transactionLimits);\n",
    replace:
      "return await (globalThis.__localBackendMutationAttempts ?? ((_nested, attempt) => attempt()))(isNested, async () => {\n        globalThis.__localBackendBeforeMutation?.(isNested);\n        await transactionManager.begin(isNested, transactionLimits);\n",
  },
  {
    why: "the end of a mutation's attempt (see the edit above)",
    find: "            transactionManager.rollback(isNested);\n            throw deserializeConvexErrorData(e);\n        }\n    };\n",
    replace:
      "            transactionManager.rollback(isNested);\n            throw deserializeConvexErrorData(e);\n        }\n        }, functionPath);\n    };\n",
  },
  {
    why: "a concurrent mutation commits only while no query runs, so a query reads one committed state (occ.ts)",
    find: "globalThis.__localBackendMutationResult = rawResult;\n",
    replace:
      "await globalThis.__localBackendCommitTurn?.(isNested);\n            globalThis.__localBackendMutationResult = rawResult;\n",
  },
  {
    why: "scheduled functions run through the backend's executor (scheduledJobs.ts runJob): exactly once, as in Convex",
    find: "async function runScheduledFunction({ db, jobId, componentPath, functionPath, args, name, }) {\n",
    replace:
      "async function runScheduledFunction({ db, jobId, componentPath, functionPath, args, name, }) {\n    const localBackendRun = globalThis.__localBackendRunScheduledFunction?.({ db, jobId, componentPath, functionPath, args, name });\n    if (localBackendRun) return await localBackendRun;\n",
  },
  {
    why: "a canceled job gets its completion time, as Convex's (its row is deleted after the retention: scheduledJobs.ts)",
    find: 'db.patch("_scheduled_functions", id, { state: { kind: "canceled" } });\n',
    replace:
      'db.patch("_scheduled_functions", id, { state: { kind: "canceled" }, completedTime: Date.now() });\n                globalThis.__localBackendJobFinished?.(Date.now());\n',
  },
  {
    why: "a function's validators are serialized and parsed once per definition, not on every call (a reload brings new ones)",
    find: "async function resolveFunction(functionPath, type) {\n",
    replace:
      "const exportedValidators = new WeakMap();\nfunction exportedValidator(func, method) {\n    let kept = exportedValidators.get(func);\n    if (!kept) exportedValidators.set(func, (kept = {}));\n    if (!(method in kept)) kept[method] = JSON.parse(func[method]());\n    return kept[method];\n}\nasync function resolveFunction(functionPath, type) {\n",
  },
  {
    why: "(the same) arguments",
    find: "    const args = JSON.parse(func.exportArgs());\n",
    replace: '    const args = exportedValidator(func, "exportArgs");\n',
  },
  {
    why: "(the same) return values",
    find: "    const returns = JSON.parse(func.exportReturns());\n",
    replace: '    const returns = exportedValidator(func, "exportReturns");\n',
  },
];

/** Convex's advice appended to read-limit errors (crates/database/src/reads.rs OVER_LIMIT_HELP). */
const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

/**
 * Edits to convex-test's transactionMetrics.js: the limits are Convex's
 * (knobs.rs), but the messages are convex-test's own; these give Convex's
 * texts (crates/database/src/reads.rs, writes.rs, model/src/scheduled_jobs).
 */
const METRICS_EDITS: Edit[] = [
  {
    why: "the same index range read again in one transaction is not another range (Convex merges its read set)",
    find: "trackIndexRange() {\n        const layer = this._current();",
    replace:
      "trackIndexRange(key) {\n        if (key !== undefined) {\n            this._rangeKeys ??= new Set();\n            if (this._rangeKeys.has(key)) return;\n            this._rangeKeys.add(key);\n        }\n        const layer = this._current();",
  },
  {
    why: "Convex's TooManyBytesRead text",
    find: "`Read too much data in a single function execution (limit: ${layer.limits.bytesRead} bytes). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace: `\`Too many bytes read in a single function execution (limit: \${layer.limits.bytesRead} bytes). ${OVER_LIMIT_HELP}\``,
  },
  {
    why: "Convex's TooManyDocumentsRead text",
    find: "`Scanned too many documents in a single function execution (limit: ${layer.limits.documentsRead}). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace: `\`Too many documents read in a single function execution (limit: \${layer.limits.documentsRead}). ${OVER_LIMIT_HELP}\``,
  },
  {
    why: "Convex's TooManyBytesWritten text",
    find: "`Wrote too much data in a single function execution (limit: ${layer.limits.bytesWritten} bytes). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace:
      "`Too many bytes written in a single function execution (limit: ${layer.limits.bytesWritten % 1048576 === 0 ? `${layer.limits.bytesWritten / 1048576} MiB` : `${layer.limits.bytesWritten} bytes`})`",
  },
  {
    why: "Convex's TooManyWrites text",
    find: "`Wrote too many documents in a single function execution (limit: ${layer.limits.documentsWritten}). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace: "`Too many writes in a single function execution (limit: ${layer.limits.documentsWritten})`",
  },
  {
    why: "Convex's TooManyReads (index ranges) text",
    find: "`Too many index ranges read in a single function execution (limit: ${layer.limits.databaseQueries}). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace: `\`Too many reads in a single function execution (limit: \${layer.limits.databaseQueries}). ${OVER_LIMIT_HELP}\``,
  },
  {
    why: "Convex's TooManyFunctionsScheduled text",
    find: "`Scheduled too many functions in a single function execution (limit: ${layer.limits.functionsScheduled}). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace: "`Too many functions scheduled by this mutation (limit: ${layer.limits.functionsScheduled})`",
  },
  {
    why: "Convex's ScheduledFunctionsArgumentsTooLarge text",
    find: "`Scheduled function arguments too large in a single function execution (limit: ${layer.limits.scheduledFunctionArgsBytes} bytes). ` +\n                    `This is a Convex limit: https://docs.convex.dev/production/state/limits`",
    replace:
      "`Too large total size of the arguments of scheduled functions from this mutation (limit: ${layer.limits.scheduledFunctionArgsBytes} bytes)`",
  },
];

/** Applies edits, each of which must match exactly once. */
function applyEdits(source: string, edits: Edit[], file: string): string {
  for (const edit of edits) {
    const count = source.split(edit.find).length - 1;
    if (count !== 1) {
      throw new Error(`convex-test edit of ${file} (${edit.why}) matched ${count} times; expected once`);
    }
    source = source.replace(edit.find, () => edit.replace);
  }
  return source;
}

/** Writes a generated module to a temp file named by its content, and returns its URL. */
function writeTemp(name: string, source: string): string {
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `local-backend-${name}-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, source);
    fs.renameSync(tmp, file);
  }
  return pathToFileURL(file).href;
}

const EXPORTS =
  "\nexport { DatabaseFake, TransactionManager, convexGlobalStorage, runScheduledFunction, " +
  "executionContextStorage, withAuth, AuthFake, getTransactionManager, " +
  // For the scheduler (scheduledJobs.ts runJob).
  "requestMetadataStorage, authStorage, newRequestId, resolveFunction, " +
  // For actions in worker threads (actionHost.ts actionSyscall).
  "getFunctionPathFromAddress, " +
  // For IndexedDatabase (indexedDatabase.ts): the query semantics it must match.
  "evaluateFieldPath, evaluateFilter, evaluateRangeFilter, evaluateQueryValue, " +
  "validateIndexRangeExpression, resolveCommittedValues, tableNameFromId, " +
  // For concurrent mutations (occ.ts): each transaction has its own tracker.
  "TransactionMetricsTracker, " +
  // For its tests (validatorMatch.test.ts): convex-test's own check.
  "validateValidator };\n";

/** A scheduled function as convex-test's `runScheduledFunction` receives it. */
type ScheduledRun = {
  db: DatabaseHandle;
  jobId: string;
  componentPath: string;
  functionPath: FunctionPath;
  args: unknown;
  name: string;
};

/** The hooks the edited convex-test calls through `globalThis` (EDITS); an unset one keeps its own behaviour. */
type LocalBackendHooks = {
  __localBackendSiteUrl?: string;
  __localBackendTableNameFromId?: (id: string) => string | null;
  __localBackendMatchesValidator?: typeof matchesValidator;
  __localBackendContextSlot?: typeof ContextSlot;
  __localBackendUserTime?: (
    kind: "query" | "mutation" | "action",
    isNested: boolean,
    run: () => Promise<unknown>,
  ) => Promise<unknown>;
  __localBackendMutationResult?: unknown;
  __localBackendBeforeCommit?: (isNested: boolean) => void;
  __localBackendBeforeMutation?: (isNested: boolean) => void;
  __localBackendMutationAttempts?: (
    isNested: boolean,
    attempt: () => Promise<unknown>,
    functionPath: { udfPath: string },
  ) => Promise<unknown>;
  __localBackendCommitTurn?: (isNested: boolean) => Promise<void> | undefined;
  __localBackendInvokeAction?: (
    functionPath: FunctionPath,
    requestId: string,
    args: string,
  ) => Promise<unknown> | undefined;
  __localBackendInvokeHttpAction?: (
    url: string,
    init: RequestInit | undefined,
    requestId: string,
  ) => Promise<unknown> | undefined;
  __localBackendRunScheduledFunction?: (job: ScheduledRun) => Promise<void> | undefined;
  __localBackendJobFinished?: (at: number) => void;
};

/** `globalThis` with the hooks the backend sets. */
export const hooks = globalThis as typeof globalThis & LocalBackendHooks;

let loaded: Promise<ConvexTestModule> | null = null;

/** The `convex-test` module plus the internals listed in EXPORTS. */
export function loadConvexTest(): Promise<ConvexTestModule> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<ConvexTestModule> {
  hooks.__localBackendTableNameFromId = tableNameFromId;
  hooks.__localBackendMatchesValidator = matchesValidator;
  hooks.__localBackendContextSlot = ContextSlot;
  const pkgJsonPath = require.resolve("convex-test/package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgJsonPath, "utf8"));
  if (pkg.version !== CONVEX_TEST_VERSION) {
    throw new Error(
      `local-backend needs convex-test ${CONVEX_TEST_VERSION} exactly (found ${pkg.version}); ` +
        `update local-backend/src/convexTestLoader.ts after checking its edits still apply.`,
    );
  }
  const distDir = path.join(path.dirname(pkgJsonPath), "dist");
  let source = applyEdits(fs.readFileSync(path.join(distDir, "index.js"), "utf8"), EDITS, "index.js");
  const metrics = applyEdits(
    fs.readFileSync(path.join(distDir, "transactionMetrics.js"), "utf8"),
    METRICS_EDITS,
    "transactionMetrics.js",
  );
  // Resolve the module's own imports to the installed files, so it shares the
  // `convex` package instance with the rest of the backend.
  const convexServer = import.meta.resolve("convex/server");
  const convexValues = import.meta.resolve("convex/values");
  source = source
    .replace('from "convex/server";', () => `from ${JSON.stringify(convexServer)};`)
    .replace('from "convex/values";', () => `from ${JSON.stringify(convexValues)};`)
    .replace(
      'from "./transactionMetrics.js";',
      () => `from ${JSON.stringify(writeTemp("convex-test-metrics", metrics))};`,
    );
  source += EXPORTS;
  return (await import(writeTemp("convex-test", source))) as ConvexTestModule;
}
