/** `start`: the backend itself (engine, servers, seeding, watching the functions folder). */
import fs from "node:fs";
import path from "node:path";
import { convexToJson, type Value } from "convex/values";
import { devFunctionsDir, type Flags, num, str } from "./cliArgs.js";
import { findRunning, loadEngine } from "./cliCommands.js";
import {
  demoAccountsWithSeedPasswords,
  guardDemoAccounts,
  type PublishedPasswords,
  readPublishedPasswords,
  runRecordingSeed,
  SEED_FUNCTION,
  type Engine,
  warmFunctions,
} from "../engine/index.js";
import type { DataStore } from "../storage/index.js";

function writeEnvLocal(apiUrl: string): void {
  const file = path.resolve(".env.local");
  const line = `VITE_CONVEX_URL=${apiUrl}`;
  let lines: string[] = [];
  if (fs.existsSync(file)) lines = fs.readFileSync(file, "utf8").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const index = lines.findIndex((l) => /^\s*VITE_CONVEX_URL\s*=/.test(l));
  if (index >= 0 && lines[index] === line) return; // unchanged: do not make Vite restart
  if (index >= 0) lines[index] = line;
  else lines.push(line);
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

/** An address only this machine can reach: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}

export async function cmdStart(flags: Flags, store: DataStore): Promise<number> {
  const host = str(flags, "host", "127.0.0.1");
  const port = num(flags, "port", 3210);
  const sitePort = num(flags, "site-port", 3211);
  const functionsDir = path.resolve(str(flags, "functions", "convex"));
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const apiUrl = `http://${urlHost}:${port}`;
  const siteUrl = `http://${urlHost}:${sitePort}`;

  // The demo accounts' passwords are in the README: never on a backend other machines reach,
  // unless whoever starts it says the network is theirs alone.
  if (flags.seed === true && flags.prod !== true && !isLoopback(host) && flags["seed-on-network"] !== true) {
    console.error(
      `Refusing --seed on ${host}: the demo accounts' passwords (the admin's too) are public in the README, ` +
        `and other machines can reach this address. Start on 127.0.0.1, leave out --seed, or pass ` +
        `--seed-on-network if no one else can reach this network.`,
    );
    return 1;
  }

  // The app's demo accounts (npm run backend passes them), refused below where others can reach.
  const exposedTo = flags.prod === true ? "with --prod" : isLoopback(host) ? null : `on ${host}`;
  const guard = exposedTo !== null && flags["seed-on-network"] !== true;
  if (guard && typeof flags["demo-accounts"] !== "string") {
    // Without the list, an imported data dir's published passwords would go unnoticed.
    console.error(
      `Refusing to start ${exposedTo} without --demo-accounts: pass the file of accounts whose published ` +
        `passwords this backend must refuse (npm run backend passes the app's), or --demo-accounts none.`,
    );
    return 1;
  }
  let published: PublishedPasswords = new Map();
  if (typeof flags["demo-accounts"] === "string" && flags["demo-accounts"] !== "none") {
    try {
      published = readPublishedPasswords(path.resolve(flags["demo-accounts"]));
    } catch (error) {
      console.error((error as Error).message);
      return 1;
    }
  }

  const running = await findRunning(store);
  if (running) {
    console.error(`A backend (pid ${running.pid}) already serves ${store.dir} at ${running.apiUrl}.`);
    return 1;
  }

  // Early, so a Vite dev server started alongside (npm run dev) finds the URL.
  if (flags["no-env-file"] !== true) writeEnvLocal(apiUrl);

  // Environment Convex Auth needs, generated on first start.
  const env = store.readEnv();
  if (!env.JWT_PRIVATE_KEY || !env.JWKS) {
    const { generateAuthKeys } = await import("../auth/index.js");
    Object.assign(env, await generateAuthKeys());
  }
  if (typeof flags["site-url"] === "string") env.SITE_URL = flags["site-url"];
  else env.SITE_URL ??= "http://localhost:5173";
  env.CONVEX_SITE_URL = siteUrl;
  env.CONVEX_CLOUD_URL = apiUrl;
  store.writeEnv(env);

  const Engine = await loadEngine();
  const { startServers } = await import("../http/index.js");
  // Before any client connects: production redacts errors (issue 14 item 11).
  if (flags.prod === true) {
    const { setRedactErrors, setLogsToClients } = await import("../sync/index.js");
    setRedactErrors(true);
    setLogsToClients(false);
  }
  const devDir = devFunctionsDir(flags, functionsDir);
  const engine = new Engine({ functionsDir, devFunctionsDir: devDir, dataDir: store.dir, apiUrl, siteUrl });
  try {
    await engine.init();
  } catch (error) {
    console.error((error as Error).message);
    engine.close();
    return 1;
  }
  // A data dir seeded once keeps the demo accounts: the same rule as for --seed, for
  // as long as one of them still has the password the README gives it.
  const demo = guard ? await demoAccountsWithSeedPasswords(engine, published) : [];
  if (demo.length > 0) {
    console.error(
      `Refusing to start ${exposedTo}: ${store.dir} holds demo accounts (${demo.join(", ")}) that still ` +
        `have the passwords the README publishes (the admin's too). Remove them first, with no backend running ` +
        `on this data dir: npm run backend -- run seed:removeDemoAccounts --data-dir ${store.dir} ` +
        `(or start without --prod on 127.0.0.1 and change their passwords), or pass --seed-on-network if no ` +
        `one else can reach this backend.`,
    );
    engine.close();
    return 1;
  }
  // And nothing brings them back while it runs (an import, seeding through the admin API).
  if (guard) guardDemoAccounts(engine, published);
  let servers;
  try {
    servers = await startServers(engine, { host, port, sitePort, apiUrl, siteUrl });
  } catch (error) {
    console.error(`Could not listen on ${host}:${port}/${sitePort}: ${(error as Error).message}`);
    engine.close();
    return 1;
  }
  // Probes of the lock socket now learn where this backend answers.
  engine.store.lockInfo = { pid: process.pid, apiUrl, siteUrl };
  fs.writeFileSync(store.runningPath, JSON.stringify({ pid: process.pid, apiUrl, siteUrl }) + "\n", { mode: 0o600 });
  console.log(`Convex API: ${apiUrl}`);
  console.log(`HTTP actions: ${siteUrl}`);
  console.log(`Data: ${store.dir}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`Stopping (${signal})...`);
    try {
      await servers.close();
    } finally {
      engine.close();
      try {
        const info = JSON.parse(fs.readFileSync(store.runningPath, "utf8"));
        if (info.pid === process.pid) fs.rmSync(store.runningPath);
      } catch {
        // Already gone.
      }
      process.exit(0);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  // Seeding creates the demo accounts whose passwords are in the README: only
  // when asked (`npm run dev` passes --seed), never on a plain start.
  const prod = flags.prod === true;
  if (prod) {
    if (flags.seed === true) console.log("--prod: not seeding (a production deployment has no demo accounts).");
  }
  if (!prod && flags.seed === true && flags["no-seed"] !== true && engine.isEmpty()) {
    const seed = await engine.describe(SEED_FUNCTION).catch((error: Error) => {
      console.error(`Cannot seed: ${error.message}`);
      return null;
    });
    if (seed && seed.kind !== "query") {
      console.log("Empty database: running seed:run ...");
      try {
        const result = await runRecordingSeed(engine, SEED_FUNCTION, {});
        console.log(
          `Seeded: ${typeof result === "string" ? result : JSON.stringify(convexToJson((result ?? null) as Value), null, 2)}`,
        );
      } catch (error) {
        console.error(`Seeding failed: ${(error as Error).message}`);
      }
    }
  }

  // `--watch` wins over `--no-watch` (a test harness may pass both).
  if (!prod && (flags.watch === true || flags["no-watch"] !== true)) {
    watchFunctions(engine, devDir ? [functionsDir, devDir] : [functionsDir]);
  }
  if (devDir) console.log(`Dev functions (seeding, test fixtures) from ${devDir}`);
  if (prod)
    console.log(
      'Production mode: errors reach clients as "Server Error" (details in this log), no seeding, no dev functions, no file watching.',
    );
  console.log("Local backend ready");
  void warmFunctions(engine, () => engine.persistence.busy());
  return -1;
}

function watchFunctions(engine: Engine, dirs: string[]): void {
  let timer: NodeJS.Timeout | null = null;
  let reloading: Promise<unknown> = Promise.resolve();
  const trigger = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      reloading = reloading
        .then(() => engine.reload())
        .then(() => void warmFunctions(engine, () => engine.persistence.busy()))
        .catch((error) => engine.logError(String(error)));
    }, 250);
  };
  for (const dir of dirs) {
    try {
      fs.watch(dir, { recursive: true }, (_event, file) => {
        if (!file) return trigger();
        const name = String(file);
        if (name.includes("node_modules") || path.basename(name).startsWith(".")) return;
        if (!/\.(ts|tsx|js|jsx|mjs|cjs|json)$/.test(name)) return;
        trigger();
      });
      console.log(`Watching ${dir} for changes`);
    } catch (error) {
      console.error(`Cannot watch ${dir}: ${(error as Error).message}`);
    }
  }
}
