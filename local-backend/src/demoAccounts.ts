/**
 * The demo accounts seeding made, whose passwords the README publishes. Seeding
 * (`seed:run`, at `start --seed` or through `run`) records in the data dir which
 * accounts it made and their password hashes; a backend other machines reach, or
 * a production one, refuses to start while any of them still has that hash.
 */
import fs from "node:fs";
import path from "node:path";
import type { Engine } from "./engine.js";
import { type Caller, canonicalPath } from "./functionContext.js";

export const SEED_FUNCTION = "seed:run";
/** In the data dir, beside the segments and the keys (owner-only, as they are). */
export const DEMO_ACCOUNTS_FILE = "demo-accounts.json";

type DemoAccount = { id: string; provider: string; providerAccountId: string; secret: string };

/** Convex Auth's account rows (with the password hash in `secret`), by id. */
function authAccounts(engine: Engine): ReadonlyMap<string, any> {
  return engine.db.tableDocuments("authAccounts") as ReadonlyMap<string, any>;
}

function markerPath(engine: Engine): string {
  return path.join(engine.store.dir, DEMO_ACCOUNTS_FILE);
}

function readMarker(engine: Engine): DemoAccount[] {
  try {
    const parsed = JSON.parse(fs.readFileSync(markerPath(engine), "utf8"));
    return Array.isArray(parsed?.accounts) ? parsed.accounts : [];
  } catch {
    return [];
  }
}

/**
 * Runs a function as the admin; when it is the seed, records the password
 * accounts it made (those that did not exist before it ran) in the data dir.
 */
export async function runRecordingSeed(
  engine: Engine,
  udfPath: string,
  args: Record<string, unknown>,
  caller: Caller = { kind: "admin" },
): Promise<unknown> {
  if (canonicalPath(udfPath) !== SEED_FUNCTION) return await engine.runAny(udfPath, args, caller);
  const before = new Set(authAccounts(engine).keys());
  const result = await engine.runAny(udfPath, args, caller);
  const made: DemoAccount[] = [];
  for (const [id, doc] of authAccounts(engine)) {
    if (before.has(id) || typeof doc.secret !== "string") continue;
    made.push({ id, provider: doc.provider, providerAccountId: doc.providerAccountId, secret: doc.secret });
  }
  if (made.length > 0) {
    const accounts = [...readMarker(engine).filter((a) => !made.some((m) => m.id === a.id)), ...made];
    fs.writeFileSync(markerPath(engine), JSON.stringify({ accounts }, null, 1) + "\n", { mode: 0o600 });
  }
  return result;
}

/** The demo accounts (their account ids, e.g. emails) that still have the password seeding gave them. */
export function demoAccountsWithSeedPasswords(engine: Engine): string[] {
  const current = authAccounts(engine);
  return readMarker(engine)
    .filter((account) => {
      const doc = current.get(account.id);
      return doc !== undefined && doc.secret === account.secret;
    })
    .map((account) => account.providerAccountId);
}
