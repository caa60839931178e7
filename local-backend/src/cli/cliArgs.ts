/** The CLI's arguments: flags, usage text, and flag values checked. */
import path from "node:path";
import { devFunctionsDirFor } from "../runtime/index.js";

export type Flags = Record<string, string | boolean>;

const BOOLEAN_FLAGS = new Set([
  "prod",
  "no-seed",
  "seed",
  "seed-on-network",
  "no-env-file",
  "no-watch",
  "watch",
  "no-dev-functions",
  "help",
]);

export function parseArgs(argv: string[]): { positional: string[]; flags: Flags } {
  const positional: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      if (inline !== undefined) flags[name] = inline;
      else if (BOOLEAN_FLAGS.has(name)) flags[name] = true;
      else if (i + 1 < argv.length) flags[name] = argv[++i];
      else throw new UsageError(`--${name} needs a value`);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run backend -- [command] [flags]

  start (default)  [--host 127.0.0.1] [--port 3210] [--site-port 3211] [--data-dir .convex-local]
                   [--functions convex] [--dev-functions convex-dev] [--no-dev-functions]
                   [--site-url http://localhost:5173] [--seed] [--no-env-file] [--no-watch] [--prod]
                   [--demo-accounts <file>]
                   --seed: run seed:run on an empty database (demo accounts; npm run dev passes it);
                   refused on a --host other machines reach unless --seed-on-network is given; so is a
                   start on such a host or with --prod while a seeded data dir's demo accounts keep
                   their README passwords (run seed:removeDemoAccounts first)
                   --demo-accounts: JSON list of { "email", "password" } the app publishes, refused as
                     above, found by their password hashes (npm run backend passes the app's);
                     required with --prod or such a --host ("none" if the app has none)
                   --dev-functions: dev tools (seeding, test fixtures) loaded on top of --functions;
                     default: the folder beside it named <functions>-dev, if it exists
                   --prod: like a production deployment: errors redacted to clients, no seeding, no dev
                     functions, no watching
  run <module:function> ['<json args>']   run any function (internal too), like \`npx convex run\`
  env list | env get NAME | env set NAME value | env remove NAME
  export [file]    JSON snapshot of every table and stored file (stdout without a file)
  import <file>    replace the database with a snapshot
Common flags: --data-dir D, --functions F, --port P (of a running backend)`;

export function str(flags: Flags, name: string, fallback: string): string {
  const value = flags[name];
  return typeof value === "string" ? value : fallback;
}

/**
 * The dev-tools folder to load on top of the functions folder (seed:run, fixtures:*), as a
 * deploy of the functions folder never contains it: none with --prod or --no-dev-functions.
 */
export function devFunctionsDir(flags: Flags, functionsDir: string): string | null {
  if (flags.prod === true || flags["no-dev-functions"] === true) return null;
  if (typeof flags["dev-functions"] === "string") return path.resolve(flags["dev-functions"]);
  return devFunctionsDirFor(functionsDir);
}

export function num(flags: Flags, name: string, fallback: number): number {
  const value = Number(str(flags, name, String(fallback)));
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new UsageError(`--${name} must be a port number`);
  return value;
}
