import fs from "node:fs";
import path from "node:path";

/**
 * The dev-tools folder beside a functions folder (`convex` -> `convex-dev`), if it exists:
 * seeding and test fixtures that the local backend (not with --prod) and the tests load on
 * top of the functions folder, and that a deploy of the functions folder never contains.
 */
export function devFunctionsDirFor(functionsDir: string): string | null {
  const resolved = path.resolve(functionsDir);
  const dir = path.join(path.dirname(resolved), `${path.basename(resolved)}-dev`);
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : null;
}
