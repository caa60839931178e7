import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { envSet, repoRoot, startBackend, stopBackend } from "./support/backend";
import { startGoogleMock } from "./support/google-mock";
import { freePort, isPortFree } from "./support/ports";
import { readState, writeState, type E2EState } from "./support/state";
import { startStaticServer } from "./support/static-server";
import { pushServiceTls } from "./support/webPush";

const execFileAsync = promisify(execFile);

/** Signing up with this address makes an admin (it is in the backend's ADMIN_EMAILS). */
export const E2E_ADMIN_EMAIL = "e2e-admin@stagetime.test";
/** Client credentials the backend's Google provider presents to the mock issuer. */
export const E2E_GOOGLE_CLIENT_ID = "stagetime-e2e.apps.googleusercontent.test";
const E2E_GOOGLE_CLIENT_SECRET = "stagetime-e2e-secret";

/**
 * Builds live outside the temp dir so that E2E_SKIP_BUILD=1 can reuse one. The Convex URL
 * is baked into the bundle, so each build is kept per backend port (dist-<port>), which also
 * keeps two runs in one checkout from overwriting each other's app.
 */
const buildCacheDir = path.join(repoRoot, "node_modules/.cache/stagetime-e2e");
const distFor = (backendPort: number) => path.join(buildCacheDir, `dist-${backendPort}`);

/** With E2E_SKIP_BUILD=1: a finished earlier build whose backend port is free now. */
async function reusableBuildPort(): Promise<number | null> {
  if (process.env.E2E_SKIP_BUILD !== "1" || !fs.existsSync(buildCacheDir)) return null;
  const candidates = fs
    .readdirSync(buildCacheDir)
    .filter((name) => /^dist-\d+$/.test(name) && fs.existsSync(path.join(buildCacheDir, name, "index.html")))
    .map((name) => ({ port: Number(name.slice(5)), mtime: fs.statSync(path.join(buildCacheDir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { port } of candidates) if (await isPortFree(port)) return port;
  return null;
}

/** Drops builds older than a day so the cache does not grow without bound. */
function pruneOldBuilds(): void {
  if (!fs.existsSync(buildCacheDir)) return;
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of fs.readdirSync(buildCacheDir)) {
    const dir = path.join(buildCacheDir, name);
    if (/^dist-\d+$/.test(name) && fs.statSync(dir).mtimeMs < dayAgo) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function buildApp(backendUrl: string, distDir: string): Promise<void> {
  fs.mkdirSync(buildCacheDir, { recursive: true });
  pruneOldBuilds();
  const started = Date.now();
  try {
    await execFileAsync(
      process.execPath,
      [
        path.join(repoRoot, "node_modules/vite/bin/vite.js"),
        "build",
        "--outDir",
        distDir,
        "--emptyOutDir",
        "--logLevel",
        "warn",
      ],
      {
        cwd: repoRoot,
        timeout: 10 * 60_000,
        maxBuffer: 64 * 1024 * 1024,
        // The tests run offline: no Maps key, so the app uses its built-in venue search.
        env: { ...process.env, VITE_CONVEX_URL: backendUrl, VITE_GOOGLE_MAPS_API_KEY: "" },
      },
    );
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`vite build failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
  console.log(`[e2e] app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Playwright global setup: a mock Google issuer, the local backend on a fresh temp data dir
 * (seeded with the demo scene), the app built against it and served with SPA fallback.
 * Ports and paths go to the JSON file named by E2E_STATE_FILE (see support/state.ts).
 * Returns the teardown, which stops all of it and removes the temp dir.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-e2e-"));
  process.env.E2E_STATE_FILE = path.join(tmpDir, "state.json");
  const dataDir = path.join(tmpDir, "data");
  fs.mkdirSync(dataDir, { recursive: true });
  const backendLog = path.join(tmpDir, "backend.log");

  const reusePort = await reusableBuildPort();
  const backendPort = reusePort ?? (await freePort());
  const mustBuild = reusePort === null;
  const distDir = distFor(backendPort);
  const sitePort = await freePort();
  const appPort = await freePort();
  const mockPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const backendUrl = `http://127.0.0.1:${backendPort}`;

  let staticServer: http.Server | undefined;
  let googleMock: Awaited<ReturnType<typeof startGoogleMock>> | undefined;
  let backendPid: number | undefined;

  const teardown = async () => {
    // A test may have restarted the backend: the state file has the current pid.
    const pid = fs.existsSync(process.env.E2E_STATE_FILE ?? "") ? readState().backendPid : backendPid;
    if (pid) await stopBackend(pid);
    if (staticServer) {
      staticServer.closeAllConnections();
      await new Promise((r) => staticServer?.close(r));
    }
    if (googleMock) await googleMock.stop();
    if (reaper.pid !== undefined) {
      try {
        process.kill(reaper.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    if (process.env.E2E_KEEP_TMP === "1") console.log(`[e2e] kept ${tmpDir}`);
    else fs.rmSync(tmpDir, { recursive: true, force: true });
  };

  // If this runner dies without running the teardown, a watcher stops the backend instead.
  const reaper = spawn(
    process.execPath,
    [path.join(repoRoot, "tests/e2e/support/reaper.mjs"), String(process.pid), process.env.E2E_STATE_FILE, tmpDir],
    { detached: true, stdio: "ignore" },
  );
  reaper.unref();

  try {
    googleMock = await startGoogleMock(mockPort, E2E_GOOGLE_CLIENT_ID);
    for (const [name, value] of [
      ["ADMIN_EMAILS", E2E_ADMIN_EMAIL],
      ["AUTH_GOOGLE_ID", E2E_GOOGLE_CLIENT_ID],
      ["AUTH_GOOGLE_SECRET", E2E_GOOGLE_CLIENT_SECRET],
      ["AUTH_GOOGLE_ISSUER", googleMock.issuer],
      // The demo accounts are minutes old here; in production a verifier's account must be a day old.
      ["VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0"],
      // ...and online sign-up to a live list wants a day-old account too.
      ["LIST_MIN_ACCOUNT_AGE_HOURS", "0"],
      // The journeys sign up more accounts a minute than a real deployment allows.
      ["SIGN_UP_LIMIT_PER_MINUTE", "1000"],
      // ...and sign the demo accounts in dozens of times in minutes.
      ["SIGN_IN_SUCCESS_LIMIT_PER_HOUR", "1000"],
      // The push tests' stand-in push service runs on this machine.
      ["PUSH_ENDPOINT_HOSTS", "127.0.0.1"],
    ] as const) {
      await envSet(dataDir, name, value);
    }

    const pushTls = pushServiceTls(path.join(tmpDir, "push-tls"));
    // Building and booting the backend are independent: overlap them.
    const [backend, build] = await Promise.allSettled([
      startBackend({
        port: backendPort,
        sitePort,
        dataDir,
        siteUrl: appUrl,
        logFile: backendLog,
        extraCaCerts: pushTls.cert,
      }),
      mustBuild ? buildApp(backendUrl, distDir) : Promise.resolve(),
    ]);
    if (backend.status === "fulfilled") backendPid = backend.value;
    if (backend.status === "rejected") throw backend.reason;
    if (build.status === "rejected") throw build.reason;

    const state: E2EState = {
      appUrl,
      backendUrl,
      siteUrl: `http://127.0.0.1:${sitePort}`,
      backendPort,
      sitePort,
      dataDir,
      backendPid: backend.value,
      backendLog,
      googleIssuer: googleMock.issuer,
      adminEmail: E2E_ADMIN_EMAIL,
      tmpDir,
      distDir,
      pushTls,
    };
    writeState(state);

    staticServer = await startStaticServer(distDir, appPort);
    process.env.E2E_APP_URL = appUrl;
    console.log(`[e2e] app ${appUrl}, backend ${backendUrl}, data ${dataDir}`);
  } catch (error) {
    if (fs.existsSync(backendLog)) {
      console.error(`[e2e] backend log:\n${fs.readFileSync(backendLog, "utf8").split("\n").slice(-60).join("\n")}`);
    }
    await teardown();
    throw error;
  }
  return teardown;
}
