/**
 * File ids cannot be guessed: `_storage` ids are Convex's format (random bits
 * and the table number, the same length and alphabet as every other id, so
 * `v.id("_storage")` and the table-from-id rule hold), not the next number
 * after the last upload, and an id nobody was given is a 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Id } from "./fixture/convex/_generated/dataModel";
import { decodeId, encodeId } from "../../local-backend/src/common/ids";
import { type Backend, startBackend } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

async function upload(text: string): Promise<Id<"_storage">> {
  const uploadUrl = await backend.httpClient().mutation(api.files.generateUploadUrl, {});
  const response = await fetch(uploadUrl, { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
  expect(response.status).toBe(200);
  return ((await response.json()) as { storageId: Id<"_storage"> }).storageId;
}

const CONVEX_ID = /^[0-9a-hjkmnp-tv-z]{32}$/;

/** The random part of an id as a number. */
function internalNumber(id: string): bigint {
  let n = 0n;
  for (const byte of decodeId(id)!.internalId) n = (n << 8n) | BigInt(byte);
  return n;
}

/** The id with its random part moved by `delta` (what guessing the next upload looks like). */
function neighbour(id: string, delta: bigint): string {
  let n = internalNumber(id) + delta;
  const bytes = new Uint8Array(16);
  for (let i = 15; i >= 0; i--) {
    bytes[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return encodeId(decodeId(id)!.tableNumber, bytes);
}

describe("storage ids", () => {
  test("uploads get random, non-sequential ids that still validate as _storage ids", async () => {
    const ids = [await upload("first"), await upload("second"), await upload("third")];
    for (const id of ids) {
      expect(id).toMatch(CONVEX_ID);
      // A valid v.id("_storage") argument, and the file is there.
      const file = await backend.httpClient().query(api.files.get, { storageId: id });
      expect(file?.size).toBeGreaterThan(0);
      expect((await fetch(file!.url!)).status).toBe(200);
    }
    const numbers = ids.map(internalNumber);
    for (let i = 1; i < numbers.length; i++) {
      const gap = numbers[i] - numbers[i - 1];
      expect(gap < -1000n || gap > 1000n, `ids ${ids[i - 1]} then ${ids[i]}`).toBe(true);
    }
    // A document inserted between uploads has the same id shape, with its own table number.
    const savedId = await backend.httpClient().mutation(api.files.save, { storageId: ids[0], label: "kept" });
    expect(savedId).toMatch(CONVEX_ID);
    expect(decodeId(savedId)!.tableNumber).not.toBe(decodeId(ids[0])!.tableNumber);
  });

  test("a made-up or neighbouring id is a 404", async () => {
    const id = await upload("secret set list");
    const guesses = [
      neighbour(id, 1n),
      neighbour(id, -1n),
      `${"0".repeat(19)}10001_storage`,
      `${"1".repeat(24)}_storage`,
      encodeId(decodeId(id)!.tableNumber, new Uint8Array(16)),
    ];
    for (const guess of guesses) {
      const response = await fetch(`${backend.url}/api/storage/${guess}`);
      expect(response.status, guess).toBe(404);
      expect(await backend.httpClient().query(api.files.get, { storageId: guess as Id<"_storage"> })).toBeNull();
    }
    expect((await fetch(`${backend.url}/api/storage/${id}`)).status).toBe(200);
  });

  test("ids stay unique and files stay reachable after a restart", async () => {
    const before = await upload("before restart");
    await backend.restart();
    const after = await upload("after restart");
    expect(after).not.toBe(before);
    for (const id of [before, after]) expect((await fetch(`${backend.url}/api/storage/${id}`)).status).toBe(200);
    // Table numbers survive the restart: the new upload's id names the same table.
    expect(decodeId(after)!.tableNumber).toBe(decodeId(before)!.tableNumber);
    const saved = await backend.httpClient().mutation(api.files.save, { storageId: after, label: "after" });
    expect(saved).toMatch(CONVEX_ID);
  });
});
