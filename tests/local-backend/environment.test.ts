import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";

/**
 * Issue 14 item 4: functions see the deployment's variables (`env set`) and
 * Convex's own, never the environment of the shell that started the backend.
 */
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { LB_HOST_SHELL_MARKER: "from the host shell" } });
});

afterAll(async () => {
  await backend?.dispose();
});

describe("function environment", () => {
  test("a variable of the backend process's environment is not visible to functions", async () => {
    const client = backend.httpClient();
    expect(await client.query(api.config.env, { name: "LB_HOST_SHELL_MARKER" })).toBeNull();
    // Nor anything else of the host's: PATH is set in every shell.
    expect(await client.query(api.config.env, { name: "PATH" })).toBeNull();
  });

  test("an `env set` variable and Convex's own URLs are visible", async () => {
    const set = await backend.cli(["env", "set", "LB_DEPLOYMENT_MARKER", "from env set"]);
    expect(set.code, set.stderr).toBe(0);
    const client = backend.httpClient();
    expect(await client.query(api.config.env, { name: "LB_DEPLOYMENT_MARKER" })).toBe("from env set");
    expect(await client.query(api.config.env, { name: "CONVEX_CLOUD_URL" })).toBe(backend.url);
    expect(await client.query(api.config.env, { name: "CONVEX_SITE_URL" })).toBe(backend.siteUrl);
  });

  test("the same variable set in both places: functions see the deployment's value", async () => {
    const set = await backend.cli(["env", "set", "LB_HOST_SHELL_MARKER", "deployment value"]);
    expect(set.code, set.stderr).toBe(0);
    const client = backend.httpClient();
    expect(await client.query(api.config.env, { name: "LB_HOST_SHELL_MARKER" })).toBe("deployment value");
    const unset = await backend.cli(["env", "remove", "LB_HOST_SHELL_MARKER"]);
    expect(unset.code, unset.stderr).toBe(0);
    expect(await client.query(api.config.env, { name: "LB_HOST_SHELL_MARKER" })).toBeNull();
  });
});
