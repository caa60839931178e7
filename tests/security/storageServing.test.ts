/**
 * Issue 13 items 7 and 17: stored files are served from the API origin, so an
 * uploaded HTML page (or SVG) must never run there: every file gets
 * `X-Content-Type-Options: nosniff` and a sandboxing CSP, and only a checked
 * raster image (png, jpeg, gif, webp whose bytes match the declared type) is
 * shown inline; anything else is an attachment. A malformed percent-escape in
 * a storage URL is the client's error (400), not the server's (500).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "../local-backend/fixture/convex/_generated/api";
import { type Backend, startBackend } from "../local-backend/harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

async function uploadAndFetch(body: Uint8Array | string, contentType: string): Promise<Response> {
  const uploadUrl = await backend.httpClient().mutation(api.files.generateUploadUrl, {});
  const uploaded = await fetch(uploadUrl, {
    method: "POST",
    headers: { "Content-Type": contentType },
    body: body as BodyInit,
  });
  expect(uploaded.status).toBe(200);
  const { storageId } = (await uploaded.json()) as { storageId: string };
  const response = await fetch(`${backend.url}/api/storage/${storageId}`);
  expect(response.status).toBe(200);
  return response;
}

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
  0, 0,
]);

describe("stored files cannot run as pages of the API origin (issue 13 item 7)", () => {
  test("an uploaded HTML page with a script downloads instead of rendering", async () => {
    const response = await uploadAndFetch(
      "<html><script>fetch('/steal?c='+document.cookie)</script></html>",
      "text/html",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(response.headers.get("content-security-policy")).toContain("sandbox");
  });

  test("SVG (which can carry script) and mislabelled images download too", async () => {
    const svg = await uploadAndFetch(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      "image/svg+xml",
    );
    expect(svg.headers.get("content-disposition")).toMatch(/^attachment/);
    const fake = await uploadAndFetch("<html><script>alert(1)</script></html>", "image/png");
    expect(fake.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(fake.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a real PNG stays inline (profile photos still show)", async () => {
    const response = await uploadAndFetch(PNG, "image/png");
    expect(response.headers.get("content-type")).toMatch(/^image\/png/);
    expect(response.headers.get("content-disposition")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
  });
});

describe("storage URL parsing (issue 13 item 17)", () => {
  test("a malformed percent-escape is a 400, not a 500", async () => {
    for (const bad of ["%E0%A4%A", "%", "abc%zz"]) {
      const response = await fetch(`${backend.url}/api/storage/${bad}`);
      expect(response.status, bad).toBe(400);
    }
  });
});
