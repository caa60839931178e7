import { cp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { makeFunctionReference } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, fixtureDir, repoRoot, startBackend, tempDir, waitFor } from "./harness";

let backend: Backend;
let root: string;
let functionsDir: string;

beforeAll(async () => {
  // A private copy of the fixture that the test may edit; node_modules is linked
  // so its imports resolve as they do in the repository.
  root = await tempDir("stagetime-watch-");
  functionsDir = path.join(root, "convex");
  await cp(fixtureDir, functionsDir, { recursive: true });
  await symlink(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"), "dir");
  backend = await startBackend({ functionsDir, watch: true });
});

afterAll(async () => {
  await backend?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

const hello = makeFunctionReference<"query", Record<string, never>, string>("extra:hello");

function extraModule(body: string, header = ""): string {
  return `${header}import { query } from "./_generated/server";
export const hello = query({ args: {}, handler: async () => ${body} });
`;
}

/** Polls the query until it answers `expected` (reloads are asynchronous). */
async function waitForHello(expected: string) {
  const http = backend.httpClient();
  await waitFor(async () => (await http.query(hello, {})) === expected, {
    message: `extra:hello to answer ${expected}. Output:\n${backend.output.slice(-3000)}`,
    timeoutMs: 45_000,
    intervalMs: 200,
  });
}

/** Waits until the backend printed something matching `pattern` after `mark`. */
async function waitForOutput(mark: number, pattern: RegExp, what: string) {
  await waitFor(() => pattern.test(backend.outputSince(mark)), {
    message: `${what} (${pattern}) in the output. Output since the change:\n${backend.outputSince(mark).slice(-3000)}`,
    timeoutMs: 45_000,
    intervalMs: 200,
  });
}

describe("watching the functions folder", () => {
  test("a new or changed module is served in place, and the data stays", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.messages.send, { channel: "watch", author: "w", body: "kept" });
    await writeFile(path.join(functionsDir, "extra.ts"), extraModule(`"v1"`));
    await waitForHello("v1");
    await writeFile(path.join(functionsDir, "extra.ts"), extraModule(`"v2"`));
    await waitForHello("v2");
    expect((await http.query(api.messages.list, { channel: "watch" })).map((m) => m._id)).toEqual([id]);
  }, 120_000);

  test("a module that does not build leaves the previous functions serving", async () => {
    const mark = backend.mark();
    await writeFile(
      path.join(functionsDir, "extra.ts"),
      `export const hello = query({ args: {}, handler: async () => "v3" `,
    );
    await waitForOutput(mark, /extra\.ts/, "the build error naming the file");
    expect(await backend.httpClient().query(hello, {})).toBe("v2");
    expect(backend.running).toBe(true);
  }, 120_000);

  test('a Node-only import outside a "use node" file fails as convex deploy would', async () => {
    const mark = backend.mark();
    await writeFile(
      path.join(functionsDir, "extra.ts"),
      extraModule(`String(typeof readFileSync)`, `import { readFileSync } from "node:fs";\n`),
    );
    await waitForOutput(mark, /node:fs/, "the bundling error naming node:fs");
    expect(await backend.httpClient().query(hello, {})).toBe("v2");
  }, 120_000);

  test("a schema that existing data violates is reported and the old functions keep serving", async () => {
    const schemaFile = path.join(functionsDir, "schema.ts");
    const original = await readFile(schemaFile, "utf8");
    const http = backend.httpClient();
    // Start from functions that build.
    await writeFile(path.join(functionsDir, "extra.ts"), extraModule(`"v3"`));
    await waitForHello("v3");
    await http.mutation(api.messages.send, { channel: "watch", author: "w", body: "a string body" });
    const mark = backend.mark();
    // Bodies become numbers: every stored message now violates the schema.
    await writeFile(schemaFile, original.replace("body: v.string(),", "body: v.number(),"));
    await waitForOutput(mark, /schema/i, "a schema validation report");
    expect(backend.outputSince(mark)).toMatch(/messages/);
    // Still the old schema: string bodies are accepted.
    await http.mutation(api.messages.send, { channel: "watch", author: "w", body: "still a string" });
    await writeFile(schemaFile, original);
    await writeFile(path.join(functionsDir, "extra.ts"), extraModule(`"v4"`));
    await waitForHello("v4");
    expect((await http.query(api.messages.list, { channel: "watch" })).map((m) => m.body)).toEqual([
      "kept",
      "a string body",
      "still a string",
    ]);
  }, 120_000);
});
