/**
 * `convex/` bundles as `npx convex deploy` bundles it: the installed Convex CLI runs its whole
 * push preparation offline (`scripts/check-deploy.mjs`: `convex deploy --debug-bundle-path`),
 * so a module Convex would refuse fails CI here, not at the first deploy. The CLI's own esbuild
 * (a different version from the local backend's) and its own rules decide, not ours.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { BundleError, bundleFunctions, modulePaths } from "../../local-backend/src/runtime/bundle/bundler";
import { repoRoot } from "../local-backend/harness";

const checkDeploy = path.join(repoRoot, "scripts", "check-deploy.mjs");

type Pushed = { modules: { path: string; environment: "isolate" | "node" }[] };

/** Runs the CLI's deploy bundling on a project folder: its exit code, output and pushed modules. */
function deployBundle(projectDir: string): { status: number | null; output: string; pushed: Pushed | null } {
  const run = spawnSync(process.execPath, [checkDeploy, projectDir], { encoding: "utf8", timeout: 300_000 });
  return {
    status: run.status,
    output: `${run.stdout}${run.stderr}`,
    pushed: run.status === 0 ? (JSON.parse(run.stdout) as Pushed) : null,
  };
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project with the given `convex/` files and this repo's node_modules (so the same CLI). */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-deploy-"));
  temps.push(dir);
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  const convexVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).dependencies.convex;
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "deploy-check", private: true, type: "module", dependencies: { convex: convexVersion } }),
  );
  for (const [file, text] of Object.entries({ "_generated/server.ts": GENERATED_SERVER, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, "convex", file)), { recursive: true });
    fs.writeFileSync(path.join(dir, "convex", file), text);
  }
  return dir;
}

const GENERATED_SERVER = `export { queryGeneric as query, actionGeneric as action } from "convex/server";\n`;
const GOOD = {
  "messages.ts": `import { query } from "./_generated/server";\nexport const list = query({ args: {}, handler: async () => [] });\n`,
};

describe("npx convex deploy of convex/", () => {
  test("the Convex CLI bundles every module, the same modules the local backend loads", () => {
    const { status, output, pushed } = deployBundle(repoRoot);
    expect(status, output).toBe(0);
    const paths = pushed!.modules.map((m) => m.path);
    // The local backend's module walk (local-backend/src/runtime/bundle/bundler.ts) finds what the CLI pushes.
    const local = modulePaths(path.join(repoRoot, "convex")).map((p) => p.replace(/\.(ts|tsx|js|jsx|mjs|cjs)$/, ".js"));
    // auth.config.ts (two dots: no function module) is pushed beside them; the backend reads it apart.
    expect(paths).toEqual([...local, "auth.config.js"].sort());
    expect(paths).toEqual(expect.arrayContaining(["scene.js", "http.js", "crons.js", "auth.config.js"]));
    // Dev tools never go out with a deploy.
    for (const dev of modulePaths(path.join(repoRoot, "convex-dev"))) {
      expect(paths).not.toContain(dev.replace(/\.ts$/, ".js"));
    }
  }, 300_000);

  test("a project the CLI accepts bundles (the control for the refusals below)", () => {
    const { status, output, pushed } = deployBundle(project(GOOD));
    expect(status, output).toBe(0);
    expect(pushed!.modules).toEqual([{ path: "messages.js", environment: "isolate" }]);
  }, 300_000);

  test('a Node built-in in a module without "use node" is refused, by the CLI and by the local backend', async () => {
    const dir = project({
      ...GOOD,
      "files.ts": `import { readFileSync } from "node:fs";\nimport { query } from "./_generated/server";\nexport const read = query({ args: {}, handler: async () => readFileSync("/etc/hostname", "utf8") });\n`,
    });
    const { status, output } = deployBundle(dir);
    expect(status).toBe(1);
    expect(output).toContain('It looks like you are using Node APIs from a file without the "use node" directive.');
    await expect(bundleFunctions(path.join(dir, "convex"), path.join(dir, "out"))).rejects.toThrow(BundleError);
  }, 300_000);

  test('"use node" in crons.ts is refused', () => {
    const dir = project({
      ...GOOD,
      "crons.ts": `"use node";\nimport { cronJobs } from "convex/server";\nconst crons = cronJobs();\nexport default crons;\n`,
    });
    const { status, output } = deployBundle(dir);
    expect(status).toBe(1);
    expect(output).toContain('"use node" directive is not allowed for crons.ts.');
  }, 300_000);
});
