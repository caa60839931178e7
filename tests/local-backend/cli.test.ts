import { readFile } from "node:fs/promises";
import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import {
  type Backend,
  type CliResult,
  fixtureDir,
  parseEnvList,
  runCli,
  startBackend,
  Subscription,
  tempDir,
  waitFor,
} from "./harness";

let backend: Backend;
const cleanup: string[] = [];

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
  await Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The JSON value `run` printed (the last JSON document in its output). */
function runResult(result: CliResult): unknown {
  expect(result.code, `run failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
  const lines = result.stdout.trimEnd().split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      return JSON.parse(lines.slice(i).join("\n"));
    } catch {
      // Not a complete JSON document yet: include one more line.
    }
  }
  throw new Error(`no JSON in run output:\n${result.stdout}`);
}

describe("CLI: env", () => {
  test("first start generated the auth keys and site URLs", async () => {
    const result = await backend.cli(["env", "list"]);
    expect(result.code, result.stderr).toBe(0);
    const env = parseEnvList(result.stdout);
    expect(env.JWT_PRIVATE_KEY).toMatch(/-----BEGIN PRIVATE KEY-----/);
    expect(JSON.parse(env.JWKS)).toMatchObject({ keys: [expect.objectContaining({ kty: "RSA" })] });
    expect(env.CONVEX_SITE_URL).toBe(backend.siteUrl);
    expect(env.SITE_URL).toMatch(/^https?:\/\//);
  });

  test("env set, list and remove; functions see the value as process.env", async () => {
    const set = await backend.cli(["env", "set", "STAGE_NAME", "Dana the Comic"]);
    expect(set.code, set.stderr).toBe(0);
    expect(parseEnvList((await backend.cli(["env", "list"])).stdout).STAGE_NAME).toBe("Dana the Comic");
    expect(
      runResult(
        await backend.cli(["run", "config:env", JSON.stringify({ name: "STAGE_NAME" })], { withFunctions: true }),
      ),
    ).toBe("Dana the Comic");
    // The running backend picks the value up, like `npx convex env set`.
    const http = backend.httpClient();
    await waitFor(async () => (await http.query(api.config.env, { name: "STAGE_NAME" })) === "Dana the Comic", {
      message: "the running backend to see STAGE_NAME",
    });
    await backend.restart();
    expect(await backend.httpClient().query(api.config.env, { name: "STAGE_NAME" })).toBe("Dana the Comic");

    const removed = await backend.cli(["env", "remove", "STAGE_NAME"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(parseEnvList((await backend.cli(["env", "list"])).stdout)).not.toHaveProperty("STAGE_NAME");
    await backend.restart();
    expect(await backend.httpClient().query(api.config.env, { name: "STAGE_NAME" })).toBeNull();
    // The generated keys are kept across restarts.
    expect(parseEnvList((await backend.cli(["env", "list"])).stdout).JWT_PRIVATE_KEY).toBeTruthy();
  }, 180_000);
});

describe("CLI: run", () => {
  test("runs an internal mutation against the running backend; subscribers see it", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.counters.get, { name: "cli" });
    await sub.waitFor((v) => v === null, "no counter yet");
    const result = await backend.cli(["run", "counters:bumpInternal", JSON.stringify({ name: "cli", by: 5 })], {
      withFunctions: true,
    });
    expect(runResult(result)).toBe(5);
    await sub.waitFor((v) => v === 5, "the counter bumped by the CLI");
  }, 120_000);

  test("runs against a stopped backend, and the write is there on the next start", async () => {
    await backend.stop();
    const result = await backend.cli(["run", "counters:bumpInternal", JSON.stringify({ name: "offline", by: 7 })], {
      withFunctions: true,
    });
    expect(runResult(result)).toBe(7);
    await backend.start();
    expect(await backend.httpClient().query(api.counters.get, { name: "offline" })).toBe(7);
  }, 180_000);

  test("runs a public query and prints its JSON result", async () => {
    await backend.httpClient().mutation(api.messages.send, { channel: "cli", author: "x", body: "printed" });
    const value = runResult(
      await backend.cli(["run", "messages:list", JSON.stringify({ channel: "cli" })], { withFunctions: true }),
    );
    expect(value).toEqual([expect.objectContaining({ channel: "cli", body: "printed" })]);
  }, 120_000);

  test("bad arguments and unknown functions fail with a non-zero exit code", async () => {
    const bad = await backend.cli(["run", "counters:bumpInternal", JSON.stringify({ name: 3 })], {
      withFunctions: true,
    });
    expect(bad.code).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/valid/i);
    const unknown = await backend.cli(["run", "counters:nothing", "{}"], { withFunctions: true });
    expect(unknown.code).not.toBe(0);
    const notJson = await backend.cli(["run", "counters:get", "{name:"], { withFunctions: true });
    expect(notJson.code).not.toBe(0);
    expect(backend.running).toBe(true);
  }, 120_000);
});

describe("CLI: export and import", () => {
  test("a JSON snapshot restores every document with its _id and _creationTime", async () => {
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "snapshot", count: 12 });
    await http.mutation(api.counters.bump, { name: "snapshot", by: 3 });
    const original = await http.query(api.messages.list, { channel: "snapshot" });
    expect(original).toHaveLength(12);

    const dir = await tempDir("stagetime-export-");
    cleanup.push(dir);
    const file = path.join(dir, "snapshot.json");
    const exported = await backend.cli(["export", file]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(file, "utf8");
    expect(() => JSON.parse(text)).not.toThrow();
    for (const doc of original) {
      expect(text).toContain(doc._id);
      expect(text).toContain(doc.body);
    }

    const freshDir = await tempDir();
    cleanup.push(freshDir);
    const imported = await runCli(["import", file, "--data-dir", freshDir]);
    expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
    const copy = await startBackend({ dataDir: freshDir, functionsDir: fixtureDir });
    try {
      const copyHttp = copy.httpClient();
      expect(await copyHttp.query(api.messages.list, { channel: "snapshot" })).toEqual(original);
      expect(await copyHttp.query(api.counters.get, { name: "snapshot" })).toBe(3);
      // The copy accepts new writes next to the imported documents.
      await copyHttp.mutation(api.messages.send, { channel: "snapshot", author: "x", body: "new" });
      const after = await copyHttp.query(api.messages.list, { channel: "snapshot" });
      expect(after.map((m) => m.body)).toEqual([...original.map((m) => m.body), "new"]);
    } finally {
      await copy.dispose();
    }
  }, 180_000);
});
