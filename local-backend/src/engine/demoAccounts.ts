/**
 * Demo accounts, whose passwords an app publishes: a backend other machines reach, or a
 * production one, refuses to start, import or seed while an account still has such a
 * password. Known two ways: the app's list (`--demo-accounts <file>`), checked against each
 * password hash; and the accounts seeding made, recorded in the data dir with their hashes.
 */
import fs from "node:fs";
import path from "node:path";
import { Password } from "@convex-dev/auth/providers/Password";
import { type Caller, canonicalPath, type FunctionInfo } from "../runtime/index.js";
import type { IndexedDatabase } from "../database/index.js";

export const SEED_FUNCTION = "seed:run";
/** In the data dir, beside the segments and the keys (owner-only, as they are). */
export const DEMO_ACCOUNTS_FILE = "demo-accounts.json";

type DemoAccount = { id: string; provider: string; providerAccountId: string; secret: string };

/** The passwords an app publishes for its demo accounts, by (lower-case) email. */
export type PublishedPasswords = ReadonlyMap<string, string>;

/**
 * Reads `--demo-accounts`: a JSON list of `{ "email", "password" }` (other fields ignored).
 * Throws with what is wrong, so a start with a bad file fails instead of guarding nothing.
 */
export function readPublishedPasswords(file: string): PublishedPasswords {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read --demo-accounts ${file}: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : [null];
  const passwords = new Map<string, string>();
  for (const entry of list as Array<{ email?: unknown; password?: unknown } | null>) {
    if (typeof entry?.email !== "string" || typeof entry.password !== "string") {
      throw new Error(`--demo-accounts ${file} must be a JSON list of { "email": string, "password": string }`);
    }
    passwords.set(entry.email.toLowerCase(), entry.password);
  }
  return passwords;
}

/** The Password provider's own check of a password against a stored hash (Scrypt). */
const passwordCrypto = (
  Password() as unknown as { options: { crypto: { verifySecret(secret: string, hash: string): Promise<boolean> } } }
).options.crypto;

/** What the demo accounts' checks use of the engine: the database, the data directory, running a function. */
export type DemoAccountsHost = {
  readonly db: IndexedDatabase;
  readonly store: { readonly dir: string };
  describe(udfPath: string): Promise<FunctionInfo | null>;
  runAny(udfPath: string, args: Record<string, unknown>, caller?: Caller): Promise<unknown>;
};

/** Engines that refuse demo accounts (another machine can reach them, or --prod), with the passwords they refuse. */
const guarded = new WeakMap<DemoAccountsHost, PublishedPasswords>();

/** From now on, this engine refuses imports and seeding that would bring demo accounts with published passwords. */
export function guardDemoAccounts(engine: DemoAccountsHost, published: PublishedPasswords): void {
  guarded.set(engine, published);
}

/** Convex Auth's account rows (with the password hash in `secret`), by id. */
function authAccounts(engine: DemoAccountsHost): ReadonlyMap<string, StoredAccount> {
  return engine.db.tableDocuments("authAccounts") as unknown as ReadonlyMap<string, StoredAccount>;
}

/** An `authAccounts` row as Convex Auth writes it. */
type StoredAccount = { provider: string; providerAccountId: string; secret?: string };

/** An `authAccounts` row from a snapshot, as far as the checks read it (anything may be there). */
type AccountRow = { provider?: unknown; providerAccountId?: unknown; secret?: unknown } | null;

function markerPath(engine: DemoAccountsHost): string {
  return path.join(engine.store.dir, DEMO_ACCOUNTS_FILE);
}

function readMarker(engine: DemoAccountsHost): DemoAccount[] {
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
  engine: DemoAccountsHost,
  udfPath: string,
  args: Record<string, unknown>,
  caller: Caller = { kind: "admin" },
): Promise<unknown> {
  if (canonicalPath(udfPath) !== SEED_FUNCTION) return await engine.runAny(udfPath, args, caller);
  // (Where there is no seed function, e.g. --prod loads no dev functions, the call fails as any unknown one.)
  if (guarded.has(engine) && (await engine.describe(udfPath).catch(() => null)) !== null) {
    throw new Error(
      `Refusing to seed: this backend is reachable by other machines or runs with --prod, and seeding makes ` +
        `demo accounts with the passwords the README publishes.`,
    );
  }
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

/** The password accounts among `docs` whose password is a published one (their emails). */
async function withPublishedPasswords(docs: Iterable<unknown>, published: PublishedPasswords): Promise<string[]> {
  const found: string[] = [];
  for (const row of docs) {
    const doc = row as AccountRow;
    if (!doc || doc.provider !== "password" || typeof doc.secret !== "string") continue;
    const email = String(doc.providerAccountId ?? "").toLowerCase();
    const password = published.get(email);
    if (password !== undefined && (await passwordCrypto.verifySecret(password, doc.secret))) found.push(email);
  }
  return found;
}

/**
 * The demo accounts (their account ids, e.g. emails) that still have a published
 * password or the one seeding gave them.
 */
export async function demoAccountsWithSeedPasswords(
  engine: DemoAccountsHost,
  published: PublishedPasswords,
): Promise<string[]> {
  const current = authAccounts(engine);
  const seeded = readMarker(engine)
    .filter((account) => {
      const doc = current.get(account.id);
      return doc !== undefined && doc.secret === account.secret;
    })
    .map((account) => account.providerAccountId);
  const withPublished = await withPublishedPasswords(current.values(), published);
  return [...new Set([...seeded, ...withPublished])];
}

/**
 * On a guarded engine, refuses a snapshot (before any of it is applied) that holds
 * demo accounts with published passwords.
 */
export async function refuseImportedDemoAccounts(engine: DemoAccountsHost, accounts: Iterable<unknown>): Promise<void> {
  const published = guarded.get(engine);
  if (published === undefined) return;
  const found = await withPublishedPasswords(accounts, published);
  if (found.length > 0) {
    throw new Error(
      `Refusing to import: this backend is reachable by other machines or runs with --prod, and the ` +
        `snapshot's demo accounts (${found.join(", ")}) have the passwords the README publishes. ` +
        `Import it on 127.0.0.1 without --prod, run seed:removeDemoAccounts, and export again.`,
    );
  }
}
