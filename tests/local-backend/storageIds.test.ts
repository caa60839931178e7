/**
 * File ids cannot be guessed: `_storage` ids are random digits (same length and
 * shape as other ids, so `v.id("_storage")` and the table-from-id rule hold),
 * not the next number after the last upload, and an id nobody was given is a 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Id } from "./fixture/convex/_generated/dataModel";
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

/** The id with its number moved by `delta` (what guessing the next upload looks like). */
function neighbour(id: string, delta: bigint): string {
  const digits = /^[0-9]+/.exec(id)![0];
  return `${(BigInt(digits) + delta).toString().padStart(digits.length, "0")}_storage`;
}

describe("storage ids", () => {
  test("uploads get random, non-sequential ids that still validate as _storage ids", async () => {
    const ids = [await upload("first"), await upload("second"), await upload("third")];
    for (const id of ids) {
      expect(id).toMatch(/^[0-9]{24}_storage$/);
      // A valid v.id("_storage") argument, and the file is there.
      const file = await backend.httpClient().query(api.files.get, { storageId: id });
      expect(file?.size).toBeGreaterThan(0);
      expect((await fetch(file!.url!)).status).toBe(200);
    }
    const numbers = ids.map((id) => BigInt(/^[0-9]+/.exec(id)![0]));
    for (let i = 1; i < numbers.length; i++) {
      const gap = numbers[i] - numbers[i - 1];
      expect(gap < -1000n || gap > 1000n, `ids ${ids[i - 1]} then ${ids[i]}`).toBe(true);
    }
    // A document inserted between uploads keeps the ordinary sequential id shape.
    const savedId = await backend.httpClient().mutation(api.files.save, { storageId: ids[0], label: "kept" });
    expect(savedId).toMatch(/^[0-9]+uploads$/);
  });

  test("a made-up or neighbouring id is a 404", async () => {
    const id = await upload("secret set list");
    const guesses = [neighbour(id, 1n), neighbour(id, -1n), `${"0".repeat(19)}10001_storage`, `${"1".repeat(24)}_storage`];
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
    // Other tables still count on from where they were.
    const saved = await backend.httpClient().mutation(api.files.save, { storageId: after, label: "after" });
    expect(saved).toMatch(/^[0-9]{1,}uploads$/);
    expect(Number(/^[0-9]+/.exec(saved)![0])).toBeLessThan(1_000_000);
  });
});
