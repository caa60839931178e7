import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { isLoopback } from "../../local-backend/src/cli/cliStart";
import { runCli, tempDir } from "./harness";

/**
 * The demo accounts' passwords (the admin's too) are in the README, so `--seed`
 * must not make them on a backend that other machines reach.
 */
describe("--seed on an address other machines reach", () => {
  test("is refused before anything starts: exit 1, a clear reason, no data written", async () => {
    const dataDir = await tempDir("seed-network-");
    const result = await runCli([
      "start",
      "--host",
      "0.0.0.0",
      "--port",
      "0",
      "--site-port",
      "0",
      "--seed",
      "--no-env-file",
      "--no-watch",
      "--data-dir",
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Refusing --seed on 0.0.0.0");
    expect(result.stdout).not.toContain("running seed:run");
    // Only the empty folders the data store makes when it opens: no keys, no documents.
    const entries = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
  });

  test("loopback addresses are the machine's own; any other address is not", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopback(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "example.com", "128.0.0.1"])
      expect(isLoopback(host)).toBe(false);
  });
});
