/**
 * `npm run backend -- [start|run|env|export|import] ...`: see local-backend/README.md.
 * Arguments in cliArgs.ts, `start` in cliStart.ts, the other commands in cliCommands.ts.
 */
import { parseArgs, str, USAGE, UsageError } from "./cliArgs.js";
import { cmdEnv, cmdExport, cmdImport, cmdRun } from "./cliCommands.js";
import { cmdStart } from "./cliStart.js";
import { DataStore } from "../storage/index.js";

async function main(): Promise<number> {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const commands = new Set(["start", "run", "env", "export", "import"]);
  const command = commands.has(positional[0]) ? positional.shift()! : "start";
  if (command === "start" && positional.length > 0) throw new UsageError(`Unknown command: ${positional[0]}`);
  const store = new DataStore(str(flags, "data-dir", ".convex-local"));
  switch (command) {
    case "start":
      return await cmdStart(flags, store);
    case "run":
      return await cmdRun(positional, flags, store);
    case "env":
      return await cmdEnv(positional, store);
    case "export":
      return await cmdExport(positional, flags, store);
    case "import":
      return await cmdImport(positional, flags, store);
  }
  return 0;
}

main().then(
  (code) => {
    // Exit once what the command wrote has left: process.exit does not wait for a pipe to drain, and a
    // large `export` or `run` result was cut short. (An empty write's callback runs after the earlier ones.)
    if (code >= 0) process.stdout.write("", () => process.exit(code));
  },
  (error) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
