/**
 * Issue 15 item 5: seeding (with the demo accounts' passwords) and the test fixtures live in
 * `convex-dev/`, beside `convex/`. The local backend (not with --prod) and the tests load them
 * on top of `convex/`; a deploy of `convex/` never contains them.
 *
 * "A deploy of convex/" is computed as `npx convex deploy` computes it: every entry point the
 * CLI takes from the functions folder (convex-js src/bundler/index.ts `entryPoints`, mirrored by
 * local-backend/src/runtime/bundle/bundler.ts `modulePaths`), bundled with esbuild with everything they import.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_EMAIL, DEMO_PASSWORD } from "../../convex-dev/model/seedData";
import { BundleError, bundleFunctions, modulePaths } from "../../local-backend/src/runtime/bundle/bundler";
import { devFunctionsDirFor } from "../../local-backend/src/runtime/bundle/devFunctions";
import { type Backend, repoRoot, startBackend } from "../local-backend/harness";

const appFunctions = path.join(repoRoot, "convex");
const devFunctions = path.join(repoRoot, "convex-dev");
/** The dev tools' functions (backend CLI and convex-test names). */
const DEV_FUNCTIONS = ["seed:run", "fixtures:insertSceneItem", "fixtures:approveClaim", "fixtures:insertSets"];

const temps: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-devtools-"));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every output file of a bundle: its text, and the source files its (inline) source map names. */
function bundleContents(outDir: string): { text: string; sources: string[] } {
  let text = "";
  const sources = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".js")) {
        const js = fs.readFileSync(file, "utf8");
        text += js;
        const map = /sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/.exec(js);
        if (map) {
          for (const source of JSON.parse(Buffer.from(map[1], "base64").toString("utf8")).sources as string[]) {
            sources.add(path.resolve(path.dirname(file), source));
          }
        }
      }
    }
  };
  walk(outDir);
  return { text, sources: [...sources] };
}

describe("what `npx convex deploy` of convex/ pushes", () => {
  test("no seeding, no fixture function and no demo account or password", async () => {
    const entryPoints = modulePaths(appFunctions);
    expect(entryPoints).toContain("scene.ts");
    for (const devModule of modulePaths(devFunctions)) expect(entryPoints).not.toContain(devModule);

    const deployed = await bundleFunctions(appFunctions, path.join(tempDir(), "bundle"));
    for (const name of DEV_FUNCTIONS) expect([...deployed.modules.keys()]).not.toContain(name.split(":")[0]);
    const { text, sources } = bundleContents(deployed.outDir);
    expect(sources.some((source) => source.startsWith(path.join(appFunctions, "scene.ts")))).toBe(true);
    expect(sources.filter((source) => source.startsWith(devFunctions + path.sep))).toEqual([]);
    for (const secret of [DEMO_PASSWORD, ADMIN_PASSWORD, DEMO_EMAIL, ADMIN_EMAIL]) expect(text).not.toContain(secret);
    // The fixtures' old names in convex/ (scene:insertForTest, claims:approveForTest, history:insertSetsForTest).
    expect(text).not.toMatch(/ForTest\b/);
  }, 120_000);

  test("the local backend's bundle with convex-dev/ on top has them (so the check above can fail)", async () => {
    expect(devFunctionsDirFor(appFunctions)).toBe(devFunctions);
    const local = await bundleFunctions(appFunctions, path.join(tempDir(), "bundle"), devFunctions);
    const modules = [...local.modules.keys()];
    for (const name of DEV_FUNCTIONS) expect(modules).toContain(name.split(":")[0]);
    expect(modules).toContain("scene");
    const { text, sources } = bundleContents(local.outDir);
    expect(sources).toContain(path.join(devFunctions, "seed.ts"));
    expect(text).toContain(ADMIN_PASSWORD);
  }, 120_000);

  test("a dev module with the path of an app module is refused; a folder without -dev sibling adds none", async () => {
    const root = tempDir();
    const app = path.join(root, "functions");
    fs.mkdirSync(path.join(app, "_generated"), { recursive: true });
    fs.writeFileSync(path.join(app, "notes.ts"), "export const x = 1;\n");
    expect(devFunctionsDirFor(app)).toBeNull();
    fs.mkdirSync(path.join(root, "functions-dev"));
    fs.writeFileSync(path.join(root, "functions-dev", "notes.ts"), "export const y = 2;\n");
    expect(devFunctionsDirFor(app)).toBe(path.join(root, "functions-dev"));
    const clash = bundleFunctions(app, path.join(root, "out"), path.join(root, "functions-dev"));
    await expect(clash).rejects.toThrow(BundleError);
    await expect(clash).rejects.toThrow(/both the module "notes"/);
  });
});

describe("the local backend in production mode", () => {
  let backend: Backend | undefined;
  afterEach(async () => {
    await backend?.dispose();
    backend = undefined;
  });

  test("--prod loads no dev functions: seed:run and the fixtures do not exist", async () => {
    backend = await startBackend({
      functionsDir: appFunctions,
      extraArgs: ["--prod"],
      seedFlag: "--seed",
      startTimeoutMs: 120_000,
    });
    expect(backend.output).not.toContain("running seed:run");
    expect(backend.output).not.toContain("Dev functions");
    for (const name of DEV_FUNCTIONS) {
      const result = await backend.cli(["run", name, "{}"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/not found|Could not find/i);
    }
  }, 180_000);
});
