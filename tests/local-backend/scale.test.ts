/**
 * The scale generator end to end at a small size: generate a scene
 * (tests/bench/scaleData.ts, as scripts/generate-scale.ts does), import it
 * with the CLI, start the local backend on it with the app's convex/, sign in
 * as generated comedian 0 with the real client, and read her dashboard and
 * history; then run the complete invariant check through the CLI.
 */
import fs from "node:fs";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { goalWeek } from "@convex/lib/weeks";
import {
  generateMic,
  generateSets,
  HOME_POOL,
  homeMicsFor,
  importScaleSnapshot,
  SCALE_PASSWORD,
  scaleEmail,
  summarizeSets,
  writeScaleSnapshot,
  type ScaleSummary,
} from "../bench/scaleData";
import { type Backend, repoRoot, startBackend, tempDir } from "./harness";

const MICS = 300;
const COMEDIANS = 20;
const MAX_SETS = 200;
const NOW = Date.now();
const TODAY = new Date(NOW).toISOString().slice(0, 10);

let backend: Backend;
let work: string;
let summary: ScaleSummary;

beforeAll(async () => {
  work = await tempDir("stagetime-scale-");
  const snapshot = path.join(work, "snapshot.json");
  summary = await writeScaleSnapshot({
    mics: MICS,
    comedians: COMEDIANS,
    maxSets: MAX_SETS,
    out: snapshot,
    nowMs: NOW,
  });
  const dataDir = path.join(work, "data");
  importScaleSnapshot(snapshot, dataDir);
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex"), dataDir });
}, 180_000);

afterAll(async () => {
  await backend?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A ConvexClient signed in with the password, as the React provider would be. */
async function signedInClient(email: string, password: string): Promise<ConvexClient> {
  const signed = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password, flow: "signIn" },
  })) as { tokens?: { token: string } | null };
  const token = signed.tokens?.token;
  if (!token) throw new Error("no session token");
  const client = backend.client();
  await new Promise<void>((resolve, reject) => {
    client.setAuth(
      async () => token,
      (ok) => (ok ? resolve() : reject(new Error("token refused"))),
    );
  });
  return client;
}

describe("a generated scene on the local backend", () => {
  test("the generator made what it says, every comedian with sets", () => {
    expect(summary.tables).toMatchObject({
      sceneItems: MICS,
      users: COMEDIANS,
      authAccounts: COMEDIANS,
      profiles: COMEDIANS,
      userStats: COMEDIANS,
    });
    expect(summary.tables.performances).toBe(summary.totalSets);
    expect(summary.comedian0).toMatchObject({ email: scaleEmail(0), sets: MAX_SETS });
  });

  test("comedian 0 signs in with the generated password and sees her real numbers", async () => {
    const client = await signedInClient(scaleEmail(0), SCALE_PASSWORD);
    const week = goalWeek(NOW, "UTC");
    const dashboard = await client.query(api.dashboard.summary, {
      goalWeekStartMs: week.startMs,
      goalWeekEndMs: week.endMs,
      today: TODAY,
    });

    expect(dashboard).toMatchObject({
      displayName: "Scale Comic 0",
      totalSets: MAX_SETS,
      totalMinutes: summary.comedian0.minutes,
    });
    expect(dashboard.totalMinutes).toBeGreaterThan(MAX_SETS * 3 - 1);

    const first = await client.query(api.history.list, { paginationOpts: { numItems: 25, cursor: null } });
    expect(first.page).toHaveLength(25);
    expect(first.isDone).toBe(false);
    const second = await client.query(api.history.list, {
      paginationOpts: { numItems: 25, cursor: first.continueCursor },
    });
    expect(second.page).toHaveLength(25);
    const seen = [...first.page, ...second.page];
    expect(new Set(seen.map((s) => s._id)).size).toBe(50);

    // The 50 newest sets are exactly the generated ones (same minutes, times, dates), newest first.
    // Her sets, recomputed with the generator's own functions.
    const pool = Array.from({ length: Math.min(MICS, HOME_POOL) }, (_, i) => generateMic(i, 1));
    const homeMics = homeMicsFor(0, pool);
    expect(homeMics.length).toBeGreaterThan(0);
    const sets = generateSets(MAX_SETS, homeMics, NOW, 31);
    expect(seen.map((s) => [s.performedAt, s.minutes, s.performanceDate])).toEqual(
      sets.slice(0, 50).map((s) => [s.performedAt, s.minutes, s.performanceDate]),
    );
    const expected = summarizeSets(sets, TODAY);
    expect(dashboard).toMatchObject({
      totalMinutes: expected.stats.totalMinutes,
      currentStreak: expected.stats.currentStreak,
      longestStreak: expected.stats.longestStreak,
    });
    expect(seen.every((s) => s.sceneItemId !== null && s.eventTitle !== null)).toBe(true);
  });

  test("a wrong password is refused", async () => {
    await expect(
      backend.httpClient().action(api.auth.signIn, {
        provider: "password",
        params: { email: scaleEmail(0), password: "not-the-password", flow: "signIn" },
      }),
    ).rejects.toThrow();
  });

  test("the landing page's community figures are the generated totals (the sharded counter's)", async () => {
    const stats = await backend.client().query(api.community.stats, {});
    expect(stats).toEqual({
      venues: MICS,
      hoursLogged: Math.floor(summary.totalMinutes / 60),
      cities: summary.cities,
      comedians: COMEDIANS,
    });
  });

  test("invariants:checkAll through the CLI finds nothing wrong, having read every row", async () => {
    const result = await backend.cli(["run", "invariants:checkAll", "{}"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      problems: string[];
      rowsChecked: Record<string, number>;
    };
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.rowsChecked).toMatchObject({
      sceneItems: MICS,
      performances: summary.totalSets,
      profiles: COMEDIANS,
      performanceDays: summary.tables.performanceDays,
    });
  });
});
