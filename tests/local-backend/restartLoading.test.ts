/**
 * A restart answers before every table is loaded: each table's base has segment files of its own
 * (manifest version 2), read when the table is first used or in the background. Here background
 * loading is off (`LOCAL_BACKEND_BACKGROUND_LOAD=0`), so the tables a test does not touch stay
 * unread and what is checked is structure, not timing: a query on one table is answered while
 * another is unread, writes made then are durable and visible after a kill -9, and the newer
 * versions the log holds win over the unread tables' segment lines.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";

let backend: Backend | undefined;

afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
});

async function admin(b: Backend, route: string): Promise<any> {
  const adminKey = fs.readFileSync(path.join(b.dataDir, "admin-key"), "utf8").trim();
  const response = await fetch(`${b.url}/_local/${route}`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}` },
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return await response.json();
}

const bodies = async (b: Backend, channel: string) =>
  (await b.httpClient().query(api.messages.list, { channel })).map((m) => m.body);
const numbered = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `#${from + i}`);

/** A backend whose messages (300) and bulk rows (400) are compacted into segments, then stopped. */
async function compactedBackend(): Promise<Backend> {
  const b = await startBackend({
    env: { LOCAL_BACKEND_SEGMENT_DOCS: "16", LOCAL_BACKEND_BACKGROUND_LOAD: "0" },
  });
  const http = b.httpClient();
  await http.mutation(api.messages.seed, { channel: "kept", count: 300 });
  await http.mutation(api.limits.fillBulk, { from: 0, count: 400 });
  expect((await admin(b, "compact")).kind).toBe("full");
  const manifest = JSON.parse(fs.readFileSync(path.join(b.dataDir, "manifest.json"), "utf8"));
  expect(Object.keys(manifest.tables)).toEqual(expect.arrayContaining(["messages", "bulk"]));
  await b.stop();
  return b;
}

describe("a restart reads a table when it is first used", () => {
  test("a query is answered while another table is still unread; that table is read whole when used", async () => {
    backend = await compactedBackend();
    await backend.start();
    const before = await admin(backend, "stats");
    expect(before.unparsedDocuments).toBeGreaterThanOrEqual(700);
    expect(await bodies(backend, "kept")).toHaveLength(300);
    // The messages are loaded; the bulk rows are not read yet (the cron's counter may be, or not).
    const after = await admin(backend, "stats");
    expect(after.unparsedDocuments).toBeGreaterThanOrEqual(400);
    expect(after.unparsedDocuments).toBeLessThanOrEqual(401);
    // A read of the other table reads all of it first: never part of it.
    expect(await backend.httpClient().query(api.limits.filterNone, {})).toBe(0);
    expect((await admin(backend, "stats")).unparsedDocuments).toBe(0);
  }, 120_000);

  test("writes while tables are unread are durable: after kill -9 the log's versions win over the segments", async () => {
    backend = await compactedBackend();
    await backend.start();
    const http = backend.httpClient();
    // Writes to a table not read yet (it is read whole first), acknowledged, then kill -9.
    const listed = await http.query(api.messages.list, { channel: "kept" });
    await http.mutation(api.messages.remove, { id: listed[0]._id });
    await http.mutation(api.messages.send, { channel: "kept", author: "b", body: "new" });
    await http.mutation(api.limits.fillBulk, { from: 400, count: 5 });
    await backend.kill();

    // The next start reads the messages' segment lines under the log: the deleted one stays deleted.
    await backend.start();
    expect((await admin(backend, "stats")).unparsedDocuments).toBeGreaterThanOrEqual(700);
    expect(await bodies(backend, "kept")).toEqual([...numbered(1, 300), "new"]);
    await backend.kill();

    // Once more after a compaction (the changes become a delta), and then a kill -9 again.
    await backend.start();
    expect((await admin(backend, "compact")).kind).toBe("delta");
    await backend.kill();
    await backend.start();
    expect(await bodies(backend, "kept")).toEqual([...numbered(1, 300), "new"]);
    const unread = (await admin(backend, "stats")).unparsedDocuments;
    expect(unread).toBeGreaterThanOrEqual(400); // the bulk rows' base; the 5 new rows came parsed from the delta
    expect(unread).toBeLessThanOrEqual(401);
    expect(await backend.httpClient().query(api.limits.filterNone, {})).toBe(0);
    expect((await admin(backend, "stats")).documents).toBeGreaterThanOrEqual(299 + 1 + 405);
  }, 180_000);
});
