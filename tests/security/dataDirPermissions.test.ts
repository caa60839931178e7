/**
 * Issue 13 item 13: the data directory holds password hashes, session ids, the
 * admin key and the JWT private key, so only its owner may read it: files 0600,
 * folders 0700, and a directory left world-readable by an older version is
 * fixed when the backend starts on it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { api } from "../local-backend/fixture/convex/_generated/api";
import { type Backend, startBackend, tempDir } from "../local-backend/harness";

const backends: Backend[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const backend of backends) await backend.dispose();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every path under `dir` (itself included) whose mode is not owner-only. */
function exposed(dir: string): string[] {
  const bad: string[] = [];
  const walk = (current: string) => {
    const mode = fs.statSync(current).mode & 0o777;
    if (mode !== 0o700) bad.push(`${path.relative(dir, current) || "."} ${mode.toString(8)}`);
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const fileMode = fs.statSync(full).mode & 0o777;
        if (fileMode !== 0o600) bad.push(`${path.relative(dir, full)} ${fileMode.toString(8)}`);
      }
    }
  };
  walk(dir);
  return bad;
}

async function writeSomething(backend: Backend): Promise<void> {
  const http = backend.httpClient();
  await http.mutation(api.messages.send, { channel: "perm", author: "a", body: "secret" });
  const uploadUrl = await http.mutation(api.files.generateUploadUrl, {});
  const response = await fetch(uploadUrl, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "bytes" });
  expect(response.status).toBe(200);
  await http.action(api.auth.signIn, {
    provider: "password",
    params: { email: "perm@example.com", password: "correct horse battery", flow: "signUp" },
  });
}

describe("data directory permissions (issue 13 item 13)", () => {
  test("a new data directory and everything written into it is owner-only", async () => {
    const parent = await tempDir();
    dirs.push(parent);
    const dataDir = path.join(parent, "data"); // made by the backend, not by mkdtemp
    const backend = await startBackend({ dataDir });
    backends.push(backend);
    await writeSomething(backend);
    // The log, env.json, admin-key, lock, backend.json, tables.json, files/...
    expect(fs.existsSync(path.join(dataDir, "log.jsonl"))).toBe(true);
    expect(exposed(dataDir)).toEqual([]);
    await backend.stop();
  });

  test("a world-readable data directory from an older version is fixed on start", async () => {
    const parent = await tempDir();
    dirs.push(parent);
    const dataDir = path.join(parent, "data");
    fs.mkdirSync(path.join(dataDir, "files"), { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, "log.jsonl"), "", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "env.json"), "{}\n", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "files", "00"), "x", { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, "log.jsonl"), 0o644);
    expect(exposed(dataDir).length).toBeGreaterThan(0);
    const backend = await startBackend({ dataDir });
    backends.push(backend);
    expect(exposed(dataDir)).toEqual([]);
    await writeSomething(backend);
    expect(exposed(dataDir)).toEqual([]);
  });
});
