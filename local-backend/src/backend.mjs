/**
 * `node local-backend/src/backend.mjs [start|run|env|export|import] ...`: the CLI
 * (cli.ts) without tsx (issue 18 item 3: start time). Run through tsx, a start
 * spent about half a second of CPU on tsx's loader (its own thread, every module
 * resolved and loaded through it, esbuild loaded into the process) before the
 * backend could answer. This plain-JavaScript entry runs `local-backend/.build/cli.mjs`
 * instead: cli.ts and its imports bundled by esbuild into one module (packages
 * stay imports), rebuilt whenever one of the files it was built from changed
 * (`.build/cli.inputs.json` keeps their sizes and modification times). The
 * folder is git-ignored: a fresh clone builds it on its first start.
 *
 * `LOCAL_BACKEND_PRECOMPILE=0`, or a bundle that does not build, runs the
 * sources through tsx as `node --import tsx local-backend/src/cli.ts` does.
 * The bundle sits one folder below `local-backend/`, as the sources do, so the
 * paths modules make from their own location (`../../node_modules`,
 * `../src/actionWorker.mjs`) hold for both.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SRC = path.dirname(fileURLToPath(import.meta.url));
const BUILD = path.join(SRC, "..", ".build");
const OUT = path.join(BUILD, "cli.mjs");
const INPUTS = path.join(BUILD, "cli.inputs.json");

/** `size:mtime` of a file, or null if it is gone. */
function fingerprint(file) {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** Whether the bundle exists and every file it was built from is as it was then. */
function upToDate() {
  if (!fs.existsSync(OUT)) return false;
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(INPUTS, "utf8"));
  } catch {
    return false;
  }
  return Object.entries(inputs).every(([file, print]) => fingerprint(path.resolve(SRC, file)) === print);
}

/** Writes `file` whole or not at all: a start that runs meanwhile never reads half of it. */
function writeWhole(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** Bundles cli.ts into OUT and records what it was built from. */
async function build() {
  // Fingerprints taken before the build: a source edited while it runs makes the next start rebuild.
  const before = new Map();
  for (const name of fs.readdirSync(SRC)) before.set(path.join(SRC, name), fingerprint(path.join(SRC, name)));
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: SRC,
    entryPoints: [path.join(SRC, "cli.ts")],
    bundle: true,
    write: false,
    outfile: OUT,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    metafile: true,
    logLevel: "silent",
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(SRC, input);
    inputs[path.relative(SRC, file)] = before.get(file) ?? fingerprint(file);
  }
  fs.mkdirSync(BUILD, { recursive: true });
  writeWhole(OUT, result.outputFiles[0].contents);
  writeWhole(INPUTS, JSON.stringify(inputs, null, 1));
}

let bundled = process.env.LOCAL_BACKEND_PRECOMPILE !== "0";
if (bundled && !upToDate()) {
  try {
    await build();
  } catch {
    // The sources run instead, and report their own error if they have one.
    bundled = false;
  }
}
if (bundled) {
  await import(pathToFileURL(OUT).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(SRC, "cli.ts")).href);
}
