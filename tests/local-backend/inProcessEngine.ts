/**
 * An engine running in the test's own process, over a copy of the benchmark
 * fixture's functions: for tests that must act at a precise point inside the
 * backend (a hook, a stopped flush loop), which no client can reach.
 */
import fs from "node:fs";
import path from "node:path";
import { Engine } from "../../local-backend/src/engine/engine";
import { repoRoot, tempDir } from "./harness";

/** A started engine and its temporary directory (`convex/` holds the functions, `data/` the data). */
export async function startInProcessEngine(prefix: string): Promise<{ engine: Engine; dir: string }> {
  const dir = await tempDir(prefix);
  fs.cpSync(path.join(repoRoot, "tests/bench/fixture/convex"), path.join(dir, "convex"), { recursive: true });
  const engine = new Engine({
    functionsDir: path.join(dir, "convex"),
    dataDir: path.join(dir, "data"),
    apiUrl: "http://127.0.0.1:1",
    siteUrl: "http://127.0.0.1:2",
    log: () => {},
    errorLog: () => {},
  });
  await engine.init({ startBackground: false });
  return { engine, dir };
}
