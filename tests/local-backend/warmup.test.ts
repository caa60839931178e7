/**
 * The backend's cold start (issue 18 item 4): bundles load as ES modules at
 * once, and the function modules are loaded in the background after the start
 * instead of on each module's first call.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { bundleFunctions } from "../../local-backend/src/runtime/bundle/bundler";
import { warmFunctions } from "../../local-backend/src/engine/warmup";
import { fixtureDir } from "./harness";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "warmup-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("bundles", () => {
  test("are marked as ES modules, so Node loads them without trying CommonJS first", async () => {
    const outDir = path.join(work, "bundle");
    const bundle = await bundleFunctions(fixtureDir, outDir);
    expect(JSON.parse(fs.readFileSync(path.join(outDir, "package.json"), "utf8"))).toEqual({ type: "module" });
    // Every module file (components' too) is under that package.json.
    const files = [
      ...bundle.modules.values(),
      ...[...bundle.components.values()].flatMap((c) => [...c.modules.values()]),
    ];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(path.relative(outDir, file).startsWith("..")).toBe(false);
    const messages = await import(pathToFileURL(bundle.modules.get("messages")!).href);
    expect(Object.keys(messages).length).toBeGreaterThan(0);
  });
});

describe("warmFunctions", () => {
  test("loads every module once, in order, past one that fails", async () => {
    const loaded: string[] = [];
    await warmFunctions({
      moduleNames: () => ["a", "broken", "lib/b"],
      loadModule: async (name: string) => {
        loaded.push(name);
        if (name === "broken") throw new Error("syntax error");
        return {};
      },
    });
    expect(loaded).toEqual(["a", "broken", "lib/b"]);
  });

  test("lets other work run between modules", async () => {
    const events: string[] = [];
    const warming = warmFunctions({
      moduleNames: () => ["a", "b", "c"],
      loadModule: async (name: string) => {
        events.push(`load ${name}`);
        return {};
      },
    });
    // A request that arrives once warming has begun is served before the remaining modules load.
    setImmediate(() => events.push("request"));
    await warming;
    expect(events.indexOf("request")).toBeGreaterThan(-1);
    expect(events.indexOf("request")).toBeLessThan(events.indexOf("load c"));
  });

  test("waits while a client's query runs before loading the next module", async () => {
    const loaded: string[] = [];
    let busy = false;
    const warming = warmFunctions(
      {
        moduleNames: () => ["a", "b"],
        loadModule: async (name: string) => {
          loaded.push(name);
          busy = true; // a query arrives as `a` loads
          return {};
        },
      },
      () => busy,
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(loaded).toEqual(["a"]);
    busy = false;
    await warming;
    expect(loaded).toEqual(["a", "b"]);
  });
});
