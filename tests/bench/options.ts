/** The bench's command-line options (see run.ts) and the figures' formatting. */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const convexDir = path.join(root, "convex");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
export const SIZES = flag("sizes", "1000,10000,100000")
  .split(",")
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
export const COMEDIANS = Number(flag("comedians", "1000"));
export const MAX_SETS = Number(flag("max-sets", "10000"));
export const SKIP_QUERIES = process.argv.includes("--skip-queries");
export const SKIP_BROWSER = process.argv.includes("--skip-browser");
export const ONLY_BROWSER = process.argv.includes("--only-browser");
export const ONLY_LIST = process.argv.includes("--only-list");
export const ONLY_QUERIES = process.argv.includes("--only-queries");
export const ONLY_DROP = process.argv.includes("--only-drop");
export const ONLY_BITS = process.argv.includes("--only-bits");
export const ONLY_BURSTS = process.argv.includes("--only-bursts");
export const ONLY_NUMBERS = process.argv.includes("--only-numbers");
export const ONLY_RESTART = process.argv.includes("--only-restart");
export const ONLY_NOTIFY = process.argv.includes("--only-notify");
export const ONLY_BUNDLE = process.argv.includes("--only-bundle");
export const LIST_WATCHERS = Number(flag("list-watchers", "200"));
export const RUNS = 5;
export const NYC = { lat: 40.7128, lng: -74.006 };

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const ms = (x: number) => `${x.toFixed(1)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
export const fmt = (n: number) => n.toLocaleString("en-US");
export function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
}
