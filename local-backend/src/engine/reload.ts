/**
 * Hot reload: rebundles the functions folder and swaps the new functions,
 * schema and components in between transactions, keeping the data. If the
 * build fails or the new schema rejects existing data, the old functions stay.
 */
import fs from "node:fs";
import {
  type Bundle,
  type ActionPool,
  type ConcurrentMutations,
  type CronRunner,
  type FunctionModules,
  loadSchema,
} from "../runtime/index.js";
import {
  type ComponentStore,
  schemaPushError,
  fingerprint,
  schemaForDb,
  validateData,
  type ConvexGlobal,
  type ConvexTestModule,
  type LoadedSchema,
  type IndexedDatabase,
} from "../database/index.js";
import type { Persistence } from "./persistence.js";

/**
 * For tests: `beforeSwap` runs after the data passed the new schema and right
 * before the swap, with the transaction lock held (so a commit started there
 * waits until the new schema is in place).
 */
export const reloadHooks: { beforeSwap?: () => Promise<void> } = {};

/** What hot reload uses of the engine: the bundle, the databases, the parts a new bundle restarts. */
export type ReloadHost = {
  readonly ct: ConvexTestModule;
  readonly g: ConvexGlobal;
  readonly db: IndexedDatabase;
  readonly opts: { functionsDir: string };
  readonly functions: Pick<FunctionModules, "build" | "swap">;
  readonly components: Pick<ComponentStore, "loadSchemas" | "attach">;
  readonly occ: Pick<ConcurrentMutations, "log">;
  readonly persistence: Pick<Persistence, "schemaFingerprint">;
  readonly actionPool: Pick<ActionPool, "recycle"> | null;
  readonly crons: Pick<CronRunner, "reload">;
  readonly reloadListeners: readonly (() => void)[];
  loadAuthConfig(): Promise<void>;
  log(line: string): void;
  logError(line: string): void;
};

export async function reloadFunctions(engine: ReloadHost): Promise<boolean> {
  let bundle: Bundle;
  try {
    bundle = await engine.functions.build();
  } catch (error) {
    engine.logError(`Reload failed, still serving the previous functions.\n${(error as Error).message}`);
    return false;
  }
  let schema: LoadedSchema | undefined;
  try {
    schema = await loadSchema(bundle);
  } catch (error) {
    engine.logError(`Reload failed: schema.ts threw: ${String(error)}. Still serving the previous functions.`);
    return false;
  }
  const refused = schemaPushError(schema);
  if (refused) {
    engine.logError(`Reload failed: Convex would refuse the schema: ${refused}. Still serving the previous functions.`);
    return false;
  }
  const dbSchema = schemaForDb(schema);
  let componentSchemas: Map<string, LoadedSchema | undefined>;
  try {
    componentSchemas = await engine.components.loadSchemas(bundle);
  } catch (error) {
    engine.logError(
      `Reload failed: a component's schema threw: ${String(error)}. Still serving the previous functions.`,
    );
    return false;
  }
  // Checked and swapped under the transaction lock, between transactions: a
  // commit cannot land between the check and the swap and leave documents the
  // new schema refuses (one that waits for the lock runs under the new schema).
  let problems: string[] = [];
  const tm = engine.g.transactionManager;
  await engine.ct.convexGlobalStorage.run(engine.g, async () => {
    await tm.begin(false);
    try {
      problems = validateData(engine.ct, engine.db, dbSchema);
      if (problems.length > 0) return;
      await reloadHooks.beforeSwap?.();
      engine.functions.swap(bundle);
      engine.db._schema = dbSchema;
      // Mutations running now began under the old schema: they run again under this one.
      engine.occ.log.schemaGeneration++;
      engine.persistence.schemaFingerprint = fingerprint(schema);
      engine.components.attach(bundle, componentSchemas, true);
      // Actions from now on run in fresh threads, which load the new bundle.
      engine.actionPool?.recycle();
    } finally {
      tm.rollback(false);
    }
  });
  if (problems.length > 0) {
    engine.logError(
      `Schema validation failed: the new schema rejects existing data; still serving the previous functions.\n  ${problems.join("\n  ")}`,
    );
    fs.rmSync(bundle.outDir, { recursive: true, force: true });
    return false;
  }
  // Every query reads the functions (on Convex a push changes the modules each one's read set
  // holds): no result the old code computed stays.
  for (const listener of engine.reloadListeners) listener();
  await engine.loadAuthConfig();
  await engine.crons.reload();
  engine.log(`Reloaded functions from ${engine.opts.functionsDir} (${bundle.modules.size} modules).`);
  return true;
}
