import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";

/**
 * Convex evaluates a function's modules for each call, so a variable a module reads when it
 * loads (`const key = process.env.KEY` at the top) follows `env set` at once. Here modules
 * stay loaded, so setting a variable evaluates them again: on the serving thread and in the
 * action threads.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { LOCAL_BACKEND_ACTION_WORKERS: "1" } });
});

afterAll(async () => {
  await backend?.dispose();
});

async function envSet(name: string, value: string): Promise<void> {
  const set = await backend.cli(["env", "set", name, value]);
  expect(set.code, set.stderr).toBe(0);
}

describe("variables read when a module loads", () => {
  test("follow env set in queries and in actions (worker threads)", async () => {
    const client = backend.httpClient();
    // Both load the module before the variable exists.
    expect(await client.query(api.config.envAtLoad, {})).toBeNull();
    expect(await client.action(api.config.envAtLoadInAction, {})).toBeNull();
    await envSet("ENV_AT_LOAD_MARKER", "first");
    expect(await client.query(api.config.envAtLoad, {})).toBe("first");
    expect(await client.action(api.config.envAtLoadInAction, {})).toBe("first");
    await envSet("ENV_AT_LOAD_MARKER", "second");
    expect(await client.action(api.config.envAtLoadInAction, {})).toBe("second");
    expect(await client.query(api.config.envAtLoad, {})).toBe("second");
  });

  test('NODE_ENV is "production" in both runtimes, as in what `convex deploy` pushes', async () => {
    const client = backend.httpClient();
    expect(await client.query(api.config.nodeEnv, {})).toBe("production");
    expect(await client.action(api.actionThreads.nodeEnv, {})).toBe("production");
  });
});
