import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../../convex-dev/model/seedData";
import { DEMO_ACCOUNTS_FILE } from "../../local-backend/src/engine/demoAccounts";
import { fixtureDir, repoRoot, runCli, startBackend, tempDir } from "./harness";

/**
 * A data dir seeded once keeps the demo accounts, whose passwords are in the README:
 * a later start that other machines reach (another --host) or a production one (--prod)
 * is refused while they still have those passwords, and nothing is served.
 */
const seedFixture = path.join(repoRoot, "tests/local-backend/seedFixture");
const devFlags = ["--functions", fixtureDir, "--dev-functions", seedFixture];
let dataDir: string;
const otherDirs: string[] = [];

afterAll(async () => {
  for (const dir of [dataDir, ...otherDirs]) if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

function start(extra: string[], opts: { demoAccounts?: boolean } = {}) {
  return runCli(
    [
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
    ],
    opts,
  );
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

  test("the README's admin password is found by its hash, without the marker: a start and an import are refused", async () => {
    // A data dir seeded before the marker existed, or filled by importing a seeded
    // one's export: the admin account with the README password, and no marker.
    dataDir = await tempDir("published-dir-");
    const made = await runCli([
      "run",
      "seed:makeAccount",
      JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      "--data-dir",
      dataDir,
      ...devFlags,
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(fs.existsSync(path.join(dataDir, DEMO_ACCOUNTS_FILE))).toBe(false);

    const refused = await start(["--host", "127.0.0.1", "--prod"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Refusing to start with --prod");
    expect(refused.stderr).toContain(ADMIN_EMAIL);
    expect(refused.stdout).not.toContain("Local backend ready");

    // Started by hand without the list (no npm script), it still refuses, asking for the list.
    for (const exposed of [["--prod"], ["--host", "0.0.0.0"]]) {
      const unlisted = await start(exposed, { demoAccounts: false });
      expect(unlisted.code).toBe(1);
      expect(unlisted.stderr).toContain("without --demo-accounts");
      expect(unlisted.stdout).not.toContain("Local backend ready");
    }

    // Its export, imported into a running production backend, is refused whole.
    const snapshot = path.join(dataDir, "..", `${path.basename(dataDir)}.json`);
    otherDirs.push(snapshot);
    const exported = await runCli(["export", snapshot, "--data-dir", dataDir, ...devFlags]);
    expect(exported.code, exported.stderr).toBe(0);
    const prod = await startBackend({ seedFlag: null, extraArgs: ["--prod"] });
    try {
      const before = await prod.cli(["export"]);
      const imported = await prod.cli(["import", snapshot]);
      expect(imported.code).not.toBe(0);
      expect(imported.stderr).toContain("Refusing to import");
      expect(imported.stderr).toContain(ADMIN_EMAIL);
      // Nothing of it applied (the fixture's cron keeps counting meanwhile).
      const tablesBefore = JSON.parse(before.stdout).tables;
      const tablesAfter = JSON.parse((await prod.cli(["export"])).stdout).tables;
      expect(tablesAfter.authAccounts ?? []).toEqual(tablesBefore.authAccounts ?? []);
      expect(tablesAfter.users ?? []).toEqual(tablesBefore.users ?? []);
      expect(JSON.stringify(tablesAfter)).not.toContain(ADMIN_EMAIL);
    } finally {
      await prod.dispose();
    }
  }, 240_000);

  test("the passwords refused are the ones --demo-accounts lists; a list that is not one stops the start", async () => {
    const dir = await tempDir("listed-dir-");
    otherDirs.push(dir);
    dataDir = path.join(dir, "data");
    const listed = { email: "listed@fixture.test", password: "a-listed-password" };
    const list = path.join(dir, "accounts.json");
    fs.writeFileSync(list, JSON.stringify([{ role: "any", ...listed }]));
    const made = await runCli(["run", "seed:makeAccount", JSON.stringify(listed), "--data-dir", dataDir, ...devFlags]);
    expect(made.code, made.stderr).toBe(0);

    const refused = await start(["--prod", "--demo-accounts", list]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Refusing to start with --prod");
    expect(refused.stderr).toContain(listed.email);

    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ email: listed.email }));
    const stopped = await start(["--prod", "--demo-accounts", bad]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`--demo-accounts ${bad} must be a JSON list`);
    expect(stopped.stdout).not.toContain("Local backend ready");
  }, 240_000);
});
