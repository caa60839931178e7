/**
 * Issue 18 item 4: index.html's inline script asks for the scene's first page
 * over HTTP (Convex's POST /api/query) before the app's JavaScript has loaded.
 * Here the script built into the page runs (in a VM, with Node's fetch) against
 * a real backend: it asks with the arguments the app's list subscribes with, its
 * answer is that page, and the app's hand-over (adoptHttpFirstPage) serves it
 * to the list for those arguments only.
 */
import path from "node:path";
import vm from "node:vm";
import { jsonToConvex } from "convex/values";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  adoptHttpFirstPage,
  firstPageArgs,
  HTTP_FIRST_PAGE_GLOBAL,
  type HttpFirstPageRequest,
  httpFirstPageFor,
  httpFirstPageScript,
  openingSceneArgs,
  type ScenePage,
} from "../../src/features/scene/firstPage";
import { type Backend, repoRoot, startBackend } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex") });
  for (const [i, city] of ["Queens", "Brooklyn"].entries()) {
    const result = await backend.cli([
      "run",
      "fixtures:insertSceneItem",
      JSON.stringify({
        type: "open_mic",
        recurrence: "weekly",
        dayOfWeek: 2 + i,
        startTimeLocal: "20:00",
        timeZone: "America/New_York",
        title: `Early Page Mic ${i}`,
        venueName: `Early Room ${i}`,
        city,
      }),
    ]);
    expect(result.code).toBe(0);
  }
});

afterAll(async () => {
  await backend?.dispose();
});

/** Runs the page's script as a browser would, at `pathname`; returns what it left on window and the requests it made. */
function runScript(convexUrl: string, pathname: string) {
  const requests: Array<{ url: string; body: unknown }> = [];
  const sandbox: Record<string, unknown> = {
    location: { pathname },
    fetch: (url: string, init: { body: string }) => {
      requests.push({ url, body: JSON.parse(init.body) });
      return url.startsWith("https://example.convex.cloud/")
        ? new Promise(() => undefined)
        : fetch(url, init as RequestInit);
    },
    setTimeout,
  };
  sandbox.window = sandbox;
  vm.runInNewContext(httpFirstPageScript(convexUrl), sandbox);
  return { left: sandbox[HTTP_FIRST_PAGE_GLOBAL] as HttpFirstPageRequest | undefined, requests };
}

test("on /scene the script asks the backend for the opening list's first page, and the list gets that page", async () => {
  const { left, requests } = runScript(`${backend.url}/`, "/scene/");
  expect(requests).toHaveLength(1);
  expect(requests[0].url).toBe(`${backend.url}/api/query`);
  // The arguments the app's list subscribes with this hour, to the letter.
  const expected = JSON.parse(JSON.stringify(firstPageArgs(openingSceneArgs(Date.now()))));
  expect(requests[0].body).toEqual({ path: "scene:listPage", format: "convex_encoded_json", args: [expected] });
  expect(left).toBeDefined();

  const value = await left!.result;
  expect(value).not.toBeNull();
  const page = jsonToConvex(value!) as unknown as ScenePage;
  const viaCli = await backend.cli(["run", "scene:listPage", JSON.stringify(expected)]);
  expect(viaCli.code).toBe(0);
  const direct = JSON.parse(viaCli.stdout) as ScenePage;
  expect(page.page.map((item) => item.title)).toEqual(direct.page.map((item) => item.title));
  expect(page.page.map((item) => item.title)).toEqual(expect.arrayContaining(["Early Page Mic 0", "Early Page Mic 1"]));

  // Handed over to the app: served for the opening arguments only.
  adoptHttpFirstPage(left);
  await left!.result;
  await Promise.resolve();
  expect(httpFirstPageFor(openingSceneArgs(Date.now()))?.page.map((item) => item._id)).toEqual(
    page.page.map((item) => item._id),
  );
  expect(httpFirstPageFor({ ...openingSceneArgs(Date.now()), search: "queens" })).toBeUndefined();
  expect(httpFirstPageFor(null)).toBeUndefined();
});

test("elsewhere the script asks for nothing, and an unreachable backend leaves no page", async () => {
  expect(runScript(backend.url, "/").requests).toHaveLength(0);
  expect(runScript(backend.url, "/dashboard").left).toBeUndefined();

  const { left } = runScript("http://127.0.0.1:9", "/scene");
  expect(await left!.result).toBeNull();
});

test("the script stays inside its <script> element whatever the backend address holds, and still asks that address", () => {
  const hostile = "https://example.convex.cloud/</script><script>alert(1)//<!--\u2028";
  const script = httpFirstPageScript(hostile);
  expect(script).not.toMatch(/<\/script|<script|<!--/i);
  const { requests } = runScript(hostile, "/scene");
  expect(requests.map((r) => r.url)).toEqual([`${hostile}/api/query`]);
});
