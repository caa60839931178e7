/**
 * How backend.mjs bundles cli/cli.ts (esbuild's options), in one place: the launcher
 * builds with them, and its test (tests/local-backend/backendLauncher.test.ts)
 * finds the files the bundle is built from with the same ones.
 */
import path from "node:path";

/**
 * esbuild's options for bundling `<srcDir>/cli/cli.ts` into `outfile`: one ES module
 * for Node, packages left as imports, kept in memory (`write: false`) with its
 * metafile, so the caller writes it and knows its inputs.
 *
 * @param {string} srcDir the folder holding cli/cli.ts (local-backend/src or a copy)
 * @param {string} outfile where the bundle goes (local-backend/.build/cli.mjs)
 * @returns {import("esbuild").BuildOptions & { write: false; metafile: true }}
 */
export function bundleOptions(srcDir, outfile) {
  return {
    absWorkingDir: srcDir,
    entryPoints: [path.join(srcDir, "cli", "cli.ts")],
    bundle: true,
    write: false,
    outfile,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    metafile: true,
    logLevel: "silent",
  };
}
