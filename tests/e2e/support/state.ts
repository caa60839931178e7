import fs from "node:fs";

/**
 * Everything the global setup started, shared with the test workers through a JSON file
 * whose path is in `E2E_STATE_FILE` (workers inherit the runner's environment).
 * The backend pid changes when a test restarts the backend, so always re-read it.
 */
export type E2EState = {
  /** Origin of the built app, e.g. http://127.0.0.1:41234 */
  appUrl: string;
  /** Convex API origin (what VITE_CONVEX_URL points at). */
  backendUrl: string;
  /** HTTP actions origin (CONVEX_SITE_URL). */
  siteUrl: string;
  backendPort: number;
  sitePort: number;
  dataDir: string;
  /** Pid of the current backend process (leader of its own process group). */
  backendPid: number;
  backendLog: string;
  /** Issuer URL of the mock Google (OpenID) server. */
  googleIssuer: string;
  /** An address listed in ADMIN_EMAILS: signing up with it makes an admin. */
  adminEmail: string;
  tmpDir: string;
  /** The built app the static server serves. */
  distDir: string;
  /** Key and certificate (for 127.0.0.1) of a test push service; the backend trusts the certificate. */
  pushTls: { key: string; cert: string };
};

export function stateFile(): string {
  const file = process.env.E2E_STATE_FILE;
  if (!file)
    throw new Error("E2E_STATE_FILE is not set: run the browser tests through `playwright test` (global setup)");
  return file;
}

export function readState(): E2EState {
  return JSON.parse(fs.readFileSync(stateFile(), "utf8")) as E2EState;
}

export function writeState(state: E2EState): void {
  const file = stateFile();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2));
  fs.renameSync(tmp, file);
}

export function updateState(patch: Partial<E2EState>): E2EState {
  const next = { ...readState(), ...patch };
  writeState(next);
  return next;
}
