/**
 * The local backend runs convex-test with a few anchored text edits to its built code
 * (local-backend/src/runtime/convexTestLoader.ts, README "Engine"). The edits were reviewed against
 * exactly these files: an upgrade or reinstall that changes them fails here, before anything runs
 * with edits nobody has re-read. After re-reading each edit against the new code, record the new
 * hashes below.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONVEX_TEST_VERSION, loadConvexTest } from "../../local-backend/src/runtime/convexTestLoader";

const require = createRequire(import.meta.url);
const distDir = path.join(path.dirname(require.resolve("convex-test/package.json")), "dist");

/** sha256 of the files the edits apply to, as reviewed with convex-test 0.0.60. */
const REVIEWED = {
  "index.js": "3ea4664390ca4e58116b08dc62b3433a0e8d5efdd0deff823a0a9e32ec3ab6b9",
  "transactionMetrics.js": "541a4b9078794443a09b157d0b212f3796125b58297f9dabf3ad05f37e10780b",
};

function sha256(file: string): string {
  return createHash("sha256")
    .update(fs.readFileSync(path.join(distDir, file)))
    .digest("hex");
}

describe("convex-test as patched", () => {
  it("is the pinned version, in package.json and installed", () => {
    const installed = JSON.parse(fs.readFileSync(require.resolve("convex-test/package.json"), "utf8")) as {
      version: string;
    };
    const root = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    expect(installed.version).toBe(CONVEX_TEST_VERSION);
    expect(root.devDependencies?.["convex-test"] ?? root.dependencies?.["convex-test"]).toBe(CONVEX_TEST_VERSION);
  });

  it("has exactly the code the edits were reviewed against", () => {
    expect({ "index.js": sha256("index.js"), "transactionMetrics.js": sha256("transactionMetrics.js") }).toEqual(
      REVIEWED,
    );
  });

  it("takes every edit once and loads", async () => {
    const ct = await loadConvexTest();
    expect(typeof ct.DatabaseFake).toBe("function");
  });
});
