/**
 * The HTTP API reads a function call's body as Convex's does (its `Json`
 * extractor, crates/common/src/http/extract.rs): JSON content types only,
 * refused with 400 BadJsonBody before the body is read, and an empty body is
 * not JSON. Code that passes here with text/plain (a CORS "simple request")
 * would fail on Convex.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isJsonContentType } from "../../local-backend/src/http/httpCommon";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

describe("which Content-Types are JSON (Convex's json_content_type)", () => {
  test.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON;charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/vnd.api+json",
    "application/ld+json",
  ])("%s is JSON", (header) => expect(isJsonContentType(header)).toBe(true));

  test.each([
    undefined,
    "",
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/json",
    "application/json5",
    "application/jsonx",
    "application",
    "application/",
    "/json",
    "application /json",
    "application/json; charset",
    "application/json; charset=a b",
  ])("%s is not", (header) => expect(isJsonContentType(header)).toBe(false));
});

describe("Content-Types read as Convex's MIME parser reads them (the Rust mime crate 0.3.17, src/parse.rs)", () => {
  test.each([
    // A trailing ";" (with spaces after it) and an empty value are accepted by its parameter loop.
    "application/json;",
    "application/json; ",
    "application/json;charset=utf-8;",
    "application/json; charset=",
    // Spaces may follow a quoted value; a backslash in one is an ordinary character.
    'application/json; a="x" ; b=c',
    'application/json; a="x\\"',
    // The subtype ends at its last "+", the suffix follows it: both of these are subtype "json" or suffix "json".
    "application/vnd.a+b+json",
    "application/json+x",
    "application/a++json",
  ])("%j is JSON", (header) => expect(isJsonContentType(header)).toBe(true));

  test.each([
    // A "+" first in the subtype does not start a suffix: the subtype is "+json".
    "application/+json",
    // No space before ";", none around "=", no tab before a parameter.
    "application/json ;charset=utf-8",
    "application/json; charset = utf-8",
    "application/json; charset =utf-8",
    "application/json; charset= utf-8",
    "application/json;\tcharset=utf-8",
    "application/json; charset=utf-8 x",
    // A quoted value ends at its first quote: no backslash escapes, and "" does not close.
    'application/json; a="x\\"y"',
    'application/json; a=""',
    'application/json; a="x"y',
    'application/json; a=x"y"',
    'application/json; a="x',
    // Empty parameters and names.
    "application/json;;",
    "application/json; ;a=b",
    "application/json;=x",
    "application/json;a=;",
    // Only visible ASCII (http's HeaderValue::to_str).
    "application/json; charset=\u00e9",
    "*/*",
  ])("%j is not", (header) => expect(isJsonContentType(header)).toBe(false));
});

describe("the HTTP API refuses what Convex refuses", () => {
  const call = JSON.stringify({ path: "messages:list", format: "json", args: [{ channel: "json-content-type" }] });
  const post = (path: string, body: string, contentType?: string) =>
    fetch(`${backend.url}${path}`, {
      method: "POST",
      headers: contentType === undefined ? {} : { "Content-Type": contentType },
      body,
    });

  test("a call sent as text/plain, as a form or with no Content-Type gets 400 BadJsonBody", async () => {
    for (const path of ["/api/query", "/api/mutation", "/api/action", "/api/function", "/api/run/messages/list"]) {
      for (const contentType of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", undefined]) {
        const response = await post(path, call, contentType);
        expect(response.status, `${path} as ${contentType}`).toBe(400);
        expect(await response.json()).toEqual({
          code: "BadJsonBody",
          message: "Expected request with `Content-Type: application/json`",
        });
      }
    }
  });

  test("a JSON type the MIME parser refuses (a space before ';', a tab, a leading '+') gets 400 BadJsonBody", async () => {
    for (const contentType of [
      "application/json ;charset=utf-8",
      "application/json;\tcharset=utf-8",
      "application/+json",
    ]) {
      const response = await post("/api/query", call, contentType);
      expect(response.status, contentType).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe("BadJsonBody");
    }
  });

  test("an empty body is not JSON", async () => {
    const response = await post("/api/query", "", "application/json");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("BadJsonBody");
  });

  test("the same call as application/json (and as +json) is answered", async () => {
    for (const contentType of ["application/json", "application/vnd.convex+json; charset=utf-8"]) {
      const response = await post("/api/query", call, contentType);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "success", value: [], logLines: [] });
    }
    expect(await backend.httpClient().query(api.messages.list, { channel: "json-content-type" })).toEqual([]);
  });
});
