import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { DEMO_ACCOUNTS_FILE } from "../../local-backend/src/demoAccounts";
import { fixtureDir, repoRoot, runCli, startBackend, tempDir } from "./harness";

/**
 * A data dir seeded once keeps the demo accounts, whose passwords are in the README:
 * a later start that other machines reach (another --host) or a production one (--prod)
 * is refused while they still have those passwords, and nothing is served.
 */
const seedFixture = path.join(repoRoot, "tests/local-backend/seedFixture");
const devFlags = ["--functions", fixtureDir, "--dev-functions", seedFixture];
let dataDir: string;

afterAll(async () => {
  if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
});

function start(extra: string[]) {
  return runCli([
    "start",
    "--port",
    "0",
    "--site-port",
    "0",
    "--no-env-file",
    "--no-watch",
    "--data-dir",
    dataDir,
    ...devFlags,
    ...extra,
  ]);
}

describe("a seeded data dir on an address other machines reach, or with --prod", () => {
  test("is refused while the demo accounts keep their seeded passwords; accepted once they change", async () => {
    dataDir = await tempDir("seeded-dir-");
    const seeded = await startBackend({ dataDir, seedFlag: "--seed", extraArgs: ["--dev-functions", seedFixture] });
    expect(seeded.output).toContain("Seeded: one demo account");
    await seeded.dispose();
    const marker = path.join(dataDir, DEMO_ACCOUNTS_FILE);
    expect(fs.statSync(marker).mode & 0o077).toBe(0);
    expect(fs.readFileSync(marker, "utf8")).toContain("demo@fixture.test");

    for (const [flags, where] of [
      [["--host", "0.0.0.0"], "on 0.0.0.0"],
      [["--host", "127.0.0.1", "--prod"], "with --prod"],
      [["--host", "0.0.0.0", "--prod"], "with --prod"],
    ] as const) {
      const refused = await start([...flags]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Refusing to start ${where}`);
      expect(refused.stderr).toContain("demo@fixture.test");
      expect(refused.stderr).toContain("run seed:removeDemoAccounts");
      expect(refused.stderr).toContain("--seed-on-network");
      expect(refused.stdout).not.toContain("Convex API:");
      expect(refused.stdout).not.toContain("Local backend ready");
    }

    // Whoever says the network is theirs alone may (the harness's clients use 127.0.0.1).
    const accepted = await startBackend({
      dataDir,
      seedFlag: null,
      extraArgs: ["--host", "0.0.0.0", "--seed-on-network"],
    });
    await accepted.dispose();

    // Once the demo password is changed, the same data dir starts with --prod.
    const changed = await runCli([
      "run",
      "seed:changeDemoPassword",
      '{"password":"a-private-one"}',
      "--data-dir",
      dataDir,
      ...devFlags,
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    const prod = await startBackend({ dataDir, seedFlag: null, extraArgs: ["--prod"] });
    expect(prod.output).toContain("Local backend ready");
    await prod.dispose();
  }, 240_000);
});
