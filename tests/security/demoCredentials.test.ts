/**
 * The demo accounts' credentials have one source, `convex-dev/model/demoAccounts.json`:
 * the seed creates the accounts from it (through seedData.ts), `npm run backend` passes it
 * as `--demo-accounts` so a backend others reach refuses them, the tests sign in with it,
 * and the README's table documents it. Here: the README's table says what the file says,
 * and no other source or test file spells the emails or passwords out again.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_EMAIL, DEMO_PASSWORD } from "../../convex-dev/model/seedData";
import { repoRoot } from "../local-backend/harness";

const SOURCE = path.join("convex-dev", "model", "demoAccounts.json");
const SCANNED_DIRS = ["src", "convex", "convex-dev", "tests", "scripts", "local-backend", "docs"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|md|html)$/;

/** Every text file under the scanned folders, relative to the repository (no node_modules or _generated). */
function textFiles(): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    const full = path.join(repoRoot, relative);
    if (!fs.existsSync(full)) return;
    for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "_generated" && !entry.name.startsWith(".")) walk(child);
      } else if (TEXT_FILE.test(entry.name)) {
        out.push(child);
      }
    }
  };
  for (const dir of SCANNED_DIRS) walk(dir);
  return out;
}

describe("demo credentials have one source", () => {
  test("the README's table lists the seed module's demo comedian and admin", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| (comedian|admin) \| `([^`]+)` \| `([^`]+)` \|$/gm)].map(
      ([, role, email, pw]) => ({
        role,
        email,
        pw,
      }),
    );
    expect(rows).toEqual([
      { role: "comedian", email: DEMO_EMAIL, pw: DEMO_PASSWORD },
      { role: "admin", email: ADMIN_EMAIL, pw: ADMIN_PASSWORD },
    ]);
  });

  test("no other source or test file copies the emails or passwords", () => {
    const files = textFiles();
    expect(files).toContain(SOURCE);
    const copies = files.flatMap((file) => {
      if (file === SOURCE) return [];
      const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
      return [DEMO_EMAIL, DEMO_PASSWORD, ADMIN_EMAIL, ADMIN_PASSWORD]
        .filter((secret) => text.includes(secret))
        .map((secret) => `${file}: ${secret}`);
    });
    expect(copies).toEqual([]);
  });
});
