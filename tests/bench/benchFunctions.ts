/** What the bench sections that seed through the backend share: their copy of the functions and an admin runner. */
import fs from "node:fs";
import path from "node:path";
import { convexToJson, type Value } from "convex/values";
import type { Backend } from "../local-backend/harness";
import { convexDir, root } from "./options";

/** `export { measure }` from the probe, for a functions copy: it counts what a function reads. */
export const PROBE_MODULE = `export { measure } from ${JSON.stringify(path.join(root, "tests/bench/probe.ts"))};\n`;

/** A bench-only module's source, its imports of convex/ pointed at the copy it is written into. */
export function benchModule(file: string): string {
  return fs.readFileSync(path.join(root, "tests/bench", file), "utf8").replaceAll('"@convex/', '"./');
}

/**
 * A copy of convex/ and convex-dev/ in `work` (tests left out) with bench-only modules added
 * (never part of the app), by file name; returns the copy's functions folder.
 */
export function functionsCopy(work: string, extra: Record<string, string>): string {
  const functionsDir = path.join(work, "convex");
  const skip = (src: string) => !/\.test\.ts$|test\.setup\.ts$|test\.registry\.ts$/.test(src);
  fs.cpSync(convexDir, functionsDir, { recursive: true, filter: skip });
  fs.cpSync(path.join(root, "convex-dev"), path.join(work, "convex-dev"), { recursive: true, filter: skip });
  for (const [file, source] of Object.entries(extra)) fs.writeFileSync(path.join(functionsDir, file), source);
  return functionsDir;
}

/** Runs a function (internal ones too) with the data dir's admin key, as the CLI's `run` does. */
export function adminRunner(backend: Backend) {
  const adminKey = fs.readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
  return async <T>(fn: string, args: Record<string, unknown>): Promise<T> => {
    const response = await fetch(`${backend.url}/_local/run`, {
      method: "POST",
      headers: { Authorization: `Convex ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ path: fn, args: convexToJson(args as Value) }),
    });
    const json = (await response.json()) as { value?: T; errorMessage?: string; message?: string };
    if (!response.ok) throw new Error(`${fn}: ${json.errorMessage ?? json.message ?? response.status}`);
    return json.value as T;
  };
}
