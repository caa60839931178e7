import { randomBytes } from "node:crypto";
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

/** Uploads bytes the way the browser does: POST to a fresh upload URL. */
async function upload(bytes: Uint8Array, contentType: string): Promise<Id<"_storage">> {
  const uploadUrl = await backend.client().mutation(api.files.generateUploadUrl, {});
  const url = new URL(uploadUrl);
  expect(url.hostname).toBe("127.0.0.1");
  expect([String(backend.port), String(backend.sitePort)]).toContain(url.port);
  const response = await fetch(uploadUrl, {
    method: "POST",
    headers: { "Content-Type": contentType },
    body: bytes as unknown as BodyInit,
  });
  expect(response.status).toBe(200);
  const json = (await response.json()) as { storageId: Id<"_storage"> };
  expect(typeof json.storageId).toBe("string");
  return json.storageId;
}

async function download(storageId: Id<"_storage">) {
  const file = await backend.httpClient().query(api.files.get, { storageId });
  expect(file).not.toBeNull();
  expect(file!.url).toBeTruthy();
  const response = await fetch(file!.url!);
  return { file: file!, response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("file storage", () => {
  test("a file round-trips through the upload and download URLs with its content type", async () => {
    const bytes = new Uint8Array(randomBytes(300 * 1024));
    const storageId = await upload(bytes, "image/png");
    await backend.client().mutation(api.files.save, { storageId, label: "headshot" });

    const { file, response, bytes: downloaded } = await download(storageId);
    expect(file.contentType).toBe("image/png");
    expect(file.size).toBe(bytes.length);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/png/);
    expect(Buffer.from(downloaded).equals(Buffer.from(bytes))).toBe(true);
  });

  test("text files keep their content type too", async () => {
    const text = "Tight five: airport bit, cat bit, closer.\n";
    const storageId = await upload(new TextEncoder().encode(text), "text/plain");
    const { response, bytes } = await download(storageId);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });

  test("stored files survive kill -9", async () => {
    const bytes = new Uint8Array(randomBytes(64 * 1024));
    const storageId = await upload(bytes, "application/pdf");
    await backend.kill();
    await backend.restart();
    const { file, response, bytes: downloaded } = await download(storageId);
    expect(file.contentType).toBe("application/pdf");
    expect(response.headers.get("content-type")).toMatch(/^application\/pdf/);
    expect(Buffer.from(downloaded).equals(Buffer.from(bytes))).toBe(true);
  }, 150_000);

  test("a deleted file is gone from its download URL", async () => {
    const storageId = await upload(new Uint8Array([1, 2, 3]), "application/octet-stream");
    const { file, response } = await download(storageId);
    expect(response.status).toBe(200);
    await backend.client().mutation(api.files.remove, { storageId });
    expect(await backend.httpClient().query(api.files.get, { storageId })).toBeNull();
    const gone = await fetch(file.url!);
    expect(gone.status).toBe(404);
  });
});
