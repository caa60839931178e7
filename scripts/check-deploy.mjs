#!/usr/bin/env node
/**
 * Bundles the project's `convex/` with the installed Convex CLI itself, as `npx convex deploy`
 * does, without a network or a deployment: `convex deploy --debug-bundle-path` runs the CLI's
 * whole push preparation (component graph, definitions, every module bundled for its runtime,
 * schema, auth config) and writes the bundle instead of uploading it. The deployment it names
 * (a self-hosted URL on a closed port) is never contacted. A module Convex's CLI refuses (a Node
 * built-in in a file without "use node", "use node" in crons.ts or http.ts, a "use node" file in
 * a component, code under `_deps/`) fails here with the CLI's own message.
 *
 * Usage: `npm run check:deploy` or `node scripts/check-deploy.mjs [projectDir]`. Prints one
 * JSON line, the pushed modules (`path`, `environment`) without the shared `_deps/` chunks, and
 * exits 0; on a refusal prints the CLI's output and exits 1. Types are checked by `npm run
 * typecheck`, so the CLI's own typecheck and codegen are off (codegen would rewrite `_generated/`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const projectDir = path.resolve(process.argv[2] ?? ".");
const require = createRequire(path.join(projectDir, "package.json"));
const cli = path.join(path.dirname(require.resolve("convex/package.json")), "bin", "main.js");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "convex-deploy-bundle-"));

try {
  const run = spawnSync(
    process.execPath,
    [cli, "deploy", "--debug-bundle-path", out, "--yes", "--codegen", "disable", "--typecheck", "disable"],
    {
      cwd: projectDir,
      encoding: "utf8",
      timeout: 300_000,
      env: {
        ...process.env,
        // A self-hosted deployment the CLI needs a name for but, with --debug-bundle-path, never calls.
        CONVEX_SELF_HOSTED_URL: "http://127.0.0.1:9",
        CONVEX_SELF_HOSTED_ADMIN_KEY: "offline-bundle-check",
        // .env.local may name a cloud deployment (npm run dev:cloud); an empty value keeps it out.
        CONVEX_DEPLOYMENT: "",
        CONVEX_DEPLOY_KEY: "",
      },
    },
  );
  const config = path.join(out, "fullConfig.json");
  if (run.status !== 0 || !fs.existsSync(config)) {
    process.stderr.write(`${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}\n`);
    process.stderr.write("npx convex deploy would refuse these functions (see above)\n");
    process.exit(1);
  }
  const { modules } = JSON.parse(fs.readFileSync(config, "utf8"));
  const pushed = modules
    .filter((m) => !m.path.startsWith("_deps/"))
    .map((m) => ({ path: m.path, environment: m.environment }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  process.stdout.write(JSON.stringify({ modules: pushed }) + "\n");
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
