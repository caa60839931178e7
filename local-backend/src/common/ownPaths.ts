/**
 * Files found from a module's own location. The sources (`src/<folder>/…`) and the precompiled
 * bundle (`local-backend/.build/cli.mjs`) sit at different depths, so the path walks up.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** `relative` joined to the nearest folder at or above `moduleUrl`'s that holds it. */
export function findUp(moduleUrl: string, relative: string): string {
  const start = path.dirname(fileURLToPath(moduleUrl));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${relative} not found above ${start}`);
  }
}
