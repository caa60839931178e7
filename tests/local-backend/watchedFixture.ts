/**
 * A backend started with `--watch` on a private copy of the benchmark fixture,
 * which a test edits to reload the functions (engine-reload, reloadSubscriptions).
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { type Backend, repoRoot, startBackend, tempDir } from "./harness";

export type WatchedFixture = {
  backend: Backend;
  functionsDir: string;
  /** Replaces `from` (which must be there) with `to` in one of the copy's files. */
  edit: (file: string, from: string, to: string) => void;
  dispose: () => Promise<void>;
};

export async function startWatchedFixture(prefix: string): Promise<WatchedFixture> {
  const dir = await tempDir(prefix);
  const functionsDir = path.join(dir, "convex");
  fs.cpSync(path.join(repoRoot, "tests/bench/fixture/convex"), functionsDir, { recursive: true });
  const backend = await startBackend({ functionsDir, extraArgs: ["--watch"] });
  return {
    backend,
    functionsDir,
    edit: (file, from, to) => {
      const full = path.join(functionsDir, file);
      const text = fs.readFileSync(full, "utf8");
      expect(text).toContain(from);
      fs.writeFileSync(full, text.replace(from, to));
    },
    dispose: async () => {
      await backend.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
