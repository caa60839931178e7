/**
 * Snapshots for the authorization matrix (convex/authz.test.ts): every
 * application row, the rows the owner owns and the bystander's rows, read
 * before and after each call of the matrix.
 */
import type { Id, TableNames } from "../_generated/dataModel";
import schema from "../schema";
import type { World } from "./test.authzWorld";
import type { TestBackend } from "./test.setup";

export const APP_TABLES = Object.keys(schema.tables).filter((name) => !name.startsWith("auth")) as TableNames[];

/** Every application row (auth bookkeeping such as sign-in rate limits left out). */
export async function snapshotAll(t: TestBackend): Promise<Record<string, unknown[]>> {
  return await t.run(async (ctx) => {
    const out: Record<string, unknown[]> = {};
    for (const table of APP_TABLES) out[table] = await ctx.db.query(table).take(10_000);
    return out;
  });
}

/** The rows the owner owns; mic counters that other comedians move are left out. */
export async function snapshotOwner(w: World): Promise<unknown[]> {
  return ownerRows(await snapshotAll(w.t), w.owner.userId);
}

/** The rows one comedian owns in a snapshot of every application table; counters others move are left out. */
export function ownerRows(all: Record<string, unknown[]>, userId: Id<"users">): unknown[] {
  const owner = userId as string;
  const rows: unknown[] = [];
  const ownerMics = new Set(
    (all.sceneItems as Array<Record<string, unknown>>).filter((d) => d.createdBy === owner).map((d) => d._id as string),
  );
  for (const [table, docs] of Object.entries(all)) {
    for (const doc of docs as Array<Record<string, unknown>>) {
      if (table === "sceneItems") {
        if (doc.createdBy !== owner) continue;
        const {
          checkInCount: _a,
          verifiedCheckIns30d: _b,
          lastCheckInAt: _c,
          lastVerifiedAt: _d,
          verificationExpiresAt: _e,
          ...rest
        } = doc;
        rows.push({ table, ...rest });
      } else if (table === "nightLists") {
        // The owner's lists as their host; the version moves with every sign-up.
        if (!ownerMics.has(doc.micId as string)) continue;
        const { version: _v, ...rest } = doc;
        rows.push({ table, ...rest });
      } else if (table === "listSpots" && doc.userId === undefined) {
        // Walk-ins are the host's entries.
        if (ownerMics.has(doc.micId as string)) rows.push({ table, ...doc });
      } else if (doc.userId === owner || doc.claimantId === owner || doc.reporterId === owner) {
        rows.push({ table, ...doc });
      }
    }
  }
  return rows;
}

/**
 * Every row of the bystander, whole (no call in the matrix is about her mic,
 * so even its counters and her list's version must hold): her account and
 * sign-in rows, her profile, sets and their derived rows, favourites, schedule,
 * check-ins, claims, reports, her mic, its list and walk-ins, and her spots on
 * other hosts' lists. Each row is tagged with its table.
 */
export function bystanderRows(
  all: Record<string, unknown[]>,
  auth: Record<string, unknown[]>,
  userId: Id<"users">,
): Array<Record<string, unknown>> {
  const me = userId as string;
  const rows: Array<Record<string, unknown>> = [];
  const myMics = new Set(
    (all.sceneItems as Array<Record<string, unknown>>).filter((d) => d.createdBy === me).map((d) => d._id as string),
  );
  for (const [table, docs] of [...Object.entries(all), ...Object.entries(auth)]) {
    for (const doc of docs as Array<Record<string, unknown>>) {
      const mine =
        (table === "users" && doc._id === me) ||
        (table === "sceneItems" && doc.createdBy === me) ||
        ((table === "nightLists" || table === "listSpots") && myMics.has(doc.micId as string)) ||
        doc.userId === me ||
        doc.claimantId === me ||
        doc.reporterId === me;
      if (mine) rows.push({ table, ...doc });
    }
  }
  const sessions = new Set(rows.filter((r) => r.table === "authSessions").map((r) => r._id as string));
  for (const doc of auth.authRefreshTokens as Array<Record<string, unknown>>) {
    if (sessions.has(doc.sessionId as string)) rows.push({ table: "authRefreshTokens", ...doc });
  }
  return rows;
}

/** One read of every application row, the owner's rows and the bystander's. */
export async function snapshotWorld(w: World): Promise<{
  all: Record<string, unknown[]>;
  owner: unknown[];
  third: Array<Record<string, unknown>>;
}> {
  const { all, auth } = await w.t.run(async (ctx) => {
    const all: Record<string, unknown[]> = {};
    for (const table of APP_TABLES) all[table] = await ctx.db.query(table).take(10_000);
    const auth: Record<string, unknown[]> = {};
    for (const table of ["authAccounts", "authSessions", "authRefreshTokens"] as const) {
      auth[table] = await ctx.db.query(table).take(10_000);
    }
    return { all, auth };
  });
  return { all, owner: ownerRows(all, w.owner.userId), third: bystanderRows(all, auth, w.third.userId) };
}
