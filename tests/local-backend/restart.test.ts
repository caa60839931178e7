/**
 * Issue 14 item 3: restart after a crash. Whatever a dead backend left behind
 * (a pid file naming a zombie that is not reaped yet, or a pid that another
 * process has now) never blocks a start; two live backends never share a data
 * directory; a restart 300 ms after kill -9 comes up.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, tempDir } from "./harness";

const backends: Backend[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const backend of backends) await backend.dispose();
  for (const child of children) child.kill("SIGKILL");
});

/** Leaves `pid` behind the way a dead backend did: lock file and backend.json. */
function leaveStalePidFiles(dataDir: string, pid: number): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, "lock"), String(pid));
  fs.writeFileSync(
    path.join(dataDir, "backend.json"),
    JSON.stringify({ pid, apiUrl: "http://127.0.0.1:9", siteUrl: "http://127.0.0.1:9" }) + "\n",
  );
}

/** A zombie: a child of a shell that exec'd into `sleep` and never waits for it. */
async function zombiePid(): Promise<number> {
  const shell = spawn("sh", ["-c", "sleep 0.05 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(shell);
  const pid = await new Promise<number>((resolve) =>
    shell.stdout!.once("data", (chunk) => resolve(Number(String(chunk).trim()))),
  );
  for (let i = 0; i < 100; i++) {
    const state = /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    if (state === "Z") return pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`pid ${pid} did not become a zombie`);
}

describe("restart after a crash (issue 14 item 3)", () => {
  test("a pid file naming a zombie does not block the start", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const pid = await zombiePid();
    expect(() => process.kill(pid, 0)).not.toThrow(); // a zombie still "exists"
    leaveStalePidFiles(dataDir, pid);
    const backend = await startBackend({ dataDir });
    backends.push(backend);
    await backend.httpClient().mutation(api.messages.send, { channel: "z", author: "a", body: "up" });
    await backend.stop();
  });

  test("a pid file naming a pid another live process now has does not block the start", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(other);
    leaveStalePidFiles(dataDir, other.pid!);
    const backend = await startBackend({ dataDir });
    backends.push(backend);
    await backend.httpClient().mutation(api.messages.send, { channel: "r", author: "a", body: "up" });
    await backend.stop();
  });

  test("two live backends never share a data directory", async () => {
    const first = await startBackend();
    backends.push(first);
    await expect(startBackend({ dataDir: first.dataDir })).rejects.toThrow(/in use|already serves/);
    // The first still serves.
    await first.httpClient().mutation(api.messages.send, { channel: "two", author: "a", body: "still here" });
  });

  test("a restart 300 ms after kill -9 comes up with the data", async () => {
    const backend = await startBackend();
    backends.push(backend);
    await backend.httpClient().mutation(api.messages.send, { channel: "k", author: "a", body: "kept" });
    await backend.kill();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await backend.start();
    expect((await backend.httpClient().query(api.messages.list, { channel: "k" })).map((m) => m.body)).toEqual([
      "kept",
    ]);
  });
});
