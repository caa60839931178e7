/**
 * The app's searches stay inside Convex's search limits on a scene where a
 * common word matches more than the 1,024 candidates a search may yield
 * (generated as for the benchmark, imported with the CLI, the app's convex/ on
 * the local backend, which throws Convex's "Search query scanned too many
 * documents" past them): the scene list's search pages through to its end,
 * the admin list and the venue search answer, and none of them throws.
 */
import fs from "node:fs";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { matchesEveryTerm, searchTerms } from "@convex/lib/sceneSearch";
import { generateMic, importScaleSnapshot, SCALE_PASSWORD, scaleEmail, writeScaleSnapshot } from "../bench/scaleData";
import { type Backend, repoRoot, startBackend, tempDir } from "./harness";

const MICS = 1500;
const SEARCH = "open mic";

let backend: Backend;
let work: string;

beforeAll(async () => {
  work = await tempDir("stagetime-search-limits-");
  const snapshot = path.join(work, "snapshot.json");
  await writeScaleSnapshot({ mics: MICS, comedians: 1, maxSets: 5, out: snapshot });
  const dataDir = path.join(work, "data");
  importScaleSnapshot(snapshot, dataDir);
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex"), dataDir });
}, 180_000);

afterAll(async () => {
  await backend?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Every scene.listPage page for a search, as the list loads them (100 a page, its most). */
async function allPages(type: "all" | "open_mic" | "show", search: string) {
  const http = backend.httpClient();
  const items: { _id: string; title: string; venueName: string; city: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const result: { page: typeof items; isDone: boolean; continueCursor: string } = await http.query(
      api.scene.listPage,
      {
        type,
        day: null,
        search,
        paginationOpts: { numItems: 100, cursor },
      },
    );
    items.push(...result.page);
    if (result.isDone) return { items, pages: pages + 1 };
    cursor = result.continueCursor;
  }
  throw new Error("no end");
}

test("the scene search for a word most mics hold pages to its end without the scan error", async () => {
  const terms = searchTerms(SEARCH);
  const matching = Array.from({ length: MICS }, (_, i) => generateMic(i)).filter((m) =>
    matchesEveryTerm(m.searchText, terms),
  ).length;
  expect(matching).toBeGreaterThan(1024);

  const { items, pages } = await allPages("all", SEARCH);
  // Convex pages through the best 1,024 candidates and stops: no error, no repeats.
  expect(new Set(items.map((i) => i._id)).size).toBe(items.length);
  expect(items.length).toBeGreaterThan(900);
  expect(items.length).toBeLessThanOrEqual(1024);
  expect(pages).toBeLessThanOrEqual(12);
  for (const item of items) expect(matchesEveryTerm(`${item.title} ${item.venueName} ${item.city}`, terms)).toBe(true);

  // The type chips too (open mics through a filter field, shows after the search).
  expect((await allPages("open_mic", SEARCH)).items.length).toBeLessThanOrEqual(1024);
  expect((await allPages("show", "at")).items.length).toBeGreaterThan(0);
}, 120_000);

test("the admin list and the venue search answer for the same word", async () => {
  const promoted = await backend.cli([
    "run",
    "admin:setAdmin",
    JSON.stringify({ email: scaleEmail(0), isAdmin: true }),
  ]);
  expect(promoted.code).toBe(0);
  const signed = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email: scaleEmail(0), password: SCALE_PASSWORD, flow: "signIn" },
  })) as { tokens?: { token: string } | null };
  const token = signed.tokens?.token;
  if (!token) throw new Error("no session token");
  const client: ConvexClient = backend.client();
  try {
    await new Promise<void>((resolve, reject) =>
      client.setAuth(
        async () => token,
        (ok) => (ok ? resolve() : reject(new Error("token refused"))),
      ),
    );
    const listed = await client.query(api.admin.listMics, { search: SEARCH });
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThanOrEqual(500);
  } finally {
    await client.close();
  }
  const venues = await backend.httpClient().query(api.venues.search, { query: "open" });
  expect(venues.length).toBeGreaterThan(0);
}, 120_000);
