/**
 * `node local-backend/src/backend.mjs [start|run|env|export|import] ...`: the CLI
 * (cli/cli.ts) without tsx (issue 18 item 3: start time). Run through tsx, a start
 * spent about half a second of CPU on tsx's loader (its own thread, every module
 * resolved and loaded through it, esbuild loaded into the process) before the
 * backend could answer. This plain-JavaScript entry runs `local-backend/.build/cli.mjs`
 * instead: cli/cli.ts and its imports bundled by esbuild into one module (packages
 * stay imports), rebuilt whenever one of the files it was built from changed
 * (the bundle's first line keeps their sizes and modification times). The
 * folder is git-ignored: a fresh clone builds it on its first start.
 *
 * `LOCAL_BACKEND_PRECOMPILE=0`, or a bundle that does not build, runs the
 * sources through tsx as `node --import tsx local-backend/src/cli/cli.ts` does.
 * Modules that find files from their own location (`node_modules`, the action
 * worker) walk up from it (common/ownPaths.ts), so the paths hold for both.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleOptions } from "./bundleOptions.mjs";

const SRC = path.dirname(fileURLToPath(import.meta.url));
const BUILD = path.join(SRC, "..", ".build");
const OUT = path.join(BUILD, "cli.mjs");
/** The bundle's first line: this, then the fingerprints of the files it was built from (JSON). */
const HEADER = "// built from ";

/** `size:mtime` of a file, or null if it is gone. */
function fingerprint(file) {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The bundle's first line (its fingerprints), or null if there is no bundle. */
function firstLine() {
  let fd;
  try {
    fd = fs.openSync(OUT, "r");
  } catch {
    return null;
  }
  try {
    const chunks = [];
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      const end = chunk.subarray(0, read).indexOf(10);
      chunks.push(Buffer.from(chunk.subarray(0, end === -1 ? read : end)));
      if (end !== -1 || read === 0) return Buffer.concat(chunks).toString("utf8");
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the bundle exists and every file it was built from is as it was then. */
function upToDate() {
  const line = firstLine();
  if (!line?.startsWith(HEADER)) return false;
  let inputs;
  try {
    inputs = JSON.parse(line.slice(HEADER.length));
  } catch {
    return false;
  }
  return Object.entries(inputs).every(([file, print]) => fingerprint(path.resolve(SRC, file)) === print);
}

/**
 * Bundles cli/cli.ts into OUT, its first line the fingerprints of every file it was
 * built from. One file, written whole and renamed into place: two starts that
 * build at once (say, before and after an edit) leave one bundle with its own
 * fingerprints, never one's code with the other's.
 */
async function build() {
  // Each input's fingerprint is taken just before esbuild reads it: a file edited
  // during the build is recorded as it was before, so the next start rebuilds.
  const prints = new Map();
  const fingerprintOnLoad = {
    name: "fingerprint",
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
        prints.set(args.path, fingerprint(args.path));
        return undefined;
      });
    },
  };
  const esbuild = await import("esbuild");
  const result = await esbuild.build({ ...bundleOptions(SRC, OUT), plugins: [fingerprintOnLoad] });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(SRC, input);
    // An input the plugin did not see (none expected) matches no fingerprint: the next start rebuilds.
    inputs[path.relative(SRC, file)] = prints.has(file) ? prints.get(file) : "unseen";
  }
  fs.mkdirSync(BUILD, { recursive: true });
  const tmp = `${OUT}.${process.pid}.tmp`;
  fs.writeFileSync(
    tmp,
    Buffer.concat([Buffer.from(`${HEADER}${JSON.stringify(inputs)}\n`), result.outputFiles[0].contents]),
  );
  fs.renameSync(tmp, OUT);
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
  await import(pathToFileURL(path.join(SRC, "cli", "cli.ts")).href);
}
