/**
 * local-backend/src/backend.mjs, the CLI's entry without tsx (issue 18 item 3):
 * it runs cli/cli.ts bundled into local-backend/.build, builds that bundle when it
 * is missing, rebuilds it when a source it was built from changes, and runs the
 * sources with LOCAL_BACKEND_PRECOMPILE=0; two starts that build at once (npm run
 * dev twice, CI's parallel starts) both run, and neither leaves nor runs a
 * half-written bundle. On a copy of local-backend/src (its own .build), with the
 * repository's packages.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot, tempDir } from "./harness";

let copy: string;
let src: string;
let bundle: string;

beforeAll(async () => {
  copy = await tempDir();
  src = path.join(copy, "local-backend", "src");
  bundle = path.join(copy, "local-backend", ".build", "cli.mjs");
  // The CLI imports nothing outside src/ but packages (checked below).
  fs.cpSync(path.join(repoRoot, "local-backend", "src"), src, { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(copy, "node_modules"));
  // The repository's ES modules setting, which the sources need when tsx runs them.
  fs.writeFileSync(path.join(copy, "package.json"), JSON.stringify({ type: "module" }));
});

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

/** The fingerprints the bundle was built with (its first line), by file relative to src/. */
function bundleInputs(): Record<string, string> {
  const line = fs.readFileSync(bundle, "utf8").split("\n", 1)[0];
  expect(line).toMatch(/^\/\/ built from \{/);
  return JSON.parse(line.slice("// built from ".length)) as Record<string, string>;
}

/** `node <copy>/local-backend/src/backend.mjs --help`: its exit code and output. */
function help(env: Record<string, string> = {}): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, [path.join(src, "backend.mjs"), "--help"], {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

/** {@link help} without waiting for it: several run at once. */
function helpAtOnce(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(src, "backend.mjs"), "--help"], { cwd: copy, timeout: 60_000 });
    let out = "";
    child.stdout.on("data", (data: Buffer) => (out += data.toString()));
    child.stderr.on("data", (data: Buffer) => (out += data.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** The bundle is whole: each file it was built from has the fingerprint its first line says, and no temporary file is left. */
function expectWholeBundle(): void {
  const inputs = bundleInputs();
  expect(Object.keys(inputs)).toContain("cli/cli.ts");
  for (const [file, print] of Object.entries(inputs)) {
    const stat = fs.statSync(path.resolve(src, file));
    expect(print, file).toBe(`${stat.size}:${stat.mtimeMs}`);
  }
  expect(fs.readdirSync(path.dirname(bundle))).toEqual(["cli.mjs"]);
}

/** A text's length and SHA-256 (a bundle as a failure message can show it). */
function digest(text: string): string {
  return `${text.length} chars, sha256 ${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

/** The bundle's text now, or null if there is none. */
function bundleText(): string | null {
  try {
    return fs.readFileSync(bundle, "utf8");
  } catch {
    return null;
  }
}

/**
 * Reads the bundle over and over until `stop` resolves: every text it ever had
 * on disk while the launchers ran (by digest), so a half-written one shows.
 */
async function watchBundle(stop: Promise<unknown>): Promise<Set<string>> {
  const seen = new Set<string>();
  let running = true;
  void stop.finally(() => (running = false));
  while (running) {
    const text = bundleText();
    if (text !== null) seen.add(digest(text));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return seen;
}

/**
 * Starts two launchers at once, a few times over: each prints `title<round>`'s
 * usage; the bundle on disk is at every moment absent, the one from before, or
 * the one left at the end, which is whole and runs as it is.
 */
async function raceTwoStarts(title: string, prepare: (round: number) => void): Promise<void> {
  for (let round = 0; round < 3; round++) {
    prepare(round);
    const before = fs.existsSync(bundle) ? digest(fs.readFileSync(bundle, "utf8")) : null;
    const starts = Promise.all([helpAtOnce(), helpAtOnce()]);
    const seen = await watchBundle(starts);
    for (const { code, out } of await starts) {
      expect(code, out).toBe(0);
      expect(out).toContain(`Usage: ${title}${round} -- [command]`);
    }
    expectWholeBundle();
    const after = digest(fs.readFileSync(bundle, "utf8"));
    expect([...seen].filter((text) => text !== before && text !== after)).toEqual([]);
    // It runs as it is: the next start neither rebuilds nor fails.
    const built = fs.statSync(bundle).mtimeMs;
    const again = help();
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain(`Usage: ${title}${round} -- [command]`);
    expect(fs.statSync(bundle).mtimeMs).toBe(built);
  }
}

/** Changes the usage text's first line in the copy's sources. */
function retitle(title: string): void {
  const file = path.join(src, "cli", "cliArgs.ts");
  const text = fs.readFileSync(file, "utf8").replace(/Usage: [^\n]*\[command\]/, `Usage: ${title} [command]`);
  fs.writeFileSync(file, text);
}

describe("backend.mjs", () => {
  test("the sources run through tsx with LOCAL_BACKEND_PRECOMPILE=0, and nothing is built", () => {
    const { code, out } = help({ LOCAL_BACKEND_PRECOMPILE: "0" });
    expect(code, out).toBe(0);
    expect(out).toContain("Usage: npm run backend -- [command]");
    expect(fs.existsSync(bundle)).toBe(false);
  }, 60_000);

  test("builds the bundle on the first run, runs it, and keeps it while nothing changed", () => {
    const first = help();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain("Usage: npm run backend -- [command]");
    const built = fs.statSync(bundle).mtimeMs;
    // Its fingerprints are in its own file: every file it was built from.
    expect(Object.keys(bundleInputs())).toEqual(
      expect.arrayContaining(["cli/cli.ts", "cli/cliArgs.ts", "engine/engine.ts", "storage/store.ts"]),
    );
    expect(fs.readdirSync(path.dirname(bundle))).toEqual(["cli.mjs"]);
    // No module of the bundle is left to load from the sources.
    expect(fs.readFileSync(bundle, "utf8")).not.toMatch(/^import [^\n]*from "\.\.?\//m);

    const second = help();
    expect(second.code, second.out).toBe(0);
    expect(fs.statSync(bundle).mtimeMs).toBe(built);
  }, 60_000);

  test("a changed source is rebuilt before it runs", () => {
    retitle("npm run changed-backend --");
    const { code, out } = help();
    expect(code, out).toBe(0);
    expect(out).toContain("Usage: npm run changed-backend -- [command]");
    expect(fs.readFileSync(bundle, "utf8")).toContain("npm run changed-backend");
  }, 60_000);

  test("is built from src/ alone: nothing of the app (its demo accounts come as --demo-accounts)", () => {
    const outside = Object.keys(bundleInputs()).filter((file) => file.startsWith(".."));
    expect(outside).toEqual([]);
  });

  test("two starts at once with no bundle both run, and leave one whole bundle", async () => {
    await raceTwoStarts("npm run raced-backend", (round) => {
      retitle(`npm run raced-backend${round} --`);
      fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
    });
  }, 120_000);

  test("two starts at once after a source changed both run the change, and leave one whole bundle", async () => {
    await raceTwoStarts("npm run edited-backend", (round) => {
      expect(fs.existsSync(bundle)).toBe(true);
      retitle(`npm run edited-backend${round} --`);
    });
  }, 120_000);

  test("sources that do not build run through tsx, which reports their error", () => {
    const file = path.join(src, "cli", "cliArgs.ts");
    const built = fs.existsSync(bundle) ? fs.readFileSync(bundle, "utf8") : null;
    fs.appendFileSync(file, "\nexport const broken = ;\n");
    const { code, out } = help();
    expect(code).not.toBe(0);
    // tsx's own report of the syntax error, not a module the copy lacks.
    expect(out).toMatch(/cliArgs\.ts:\d+:\d+: ERROR: Unexpected ";"/);
    expect(out).not.toContain("ERR_MODULE_NOT_FOUND");
    // The failed build left the last bundle as it was.
    expect(fs.existsSync(bundle) ? fs.readFileSync(bundle, "utf8") : null).toBe(built);
  }, 60_000);
});
