/**
 * Issue 18 item 4: index.html's inline script asks for the scene's first page
 * over HTTP (Convex's POST /api/query) before the app's JavaScript has loaded;
 * and Tonight's, and the area's list instead of the plain one when the
 * distance filter was left on (issue 35). Here the script built into the page
 * runs (in a VM, with Node's fetch) against a real backend: it asks with the
 * arguments the app's lists subscribe with, its answers are those pages, and
 * the app's hand-over (adoptHttpFirstPage) serves them for those arguments only.
 */
import path from "node:path";
import vm from "node:vm";
import { jsonToConvex } from "convex/values";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  adoptHttpFirstPage,
  areaFirstPageArgs,
  firstPageArgs,
  HTTP_FIRST_PAGE_GLOBAL,
  type HttpFirstPageRequest,
  httpFirstPageFor,
  httpFirstPageScript,
  httpPageFor,
  openingSceneArgs,
  retireHttpFirstPage,
  type ScenePage,
  tonightFirstPageArgs,
} from "../../src/features/scene/list/firstPage";
import { NO_PLAN_FILTERS, tonightArgs } from "../../src/features/scene/tonight/tonightArgs";
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
        // Queens: in Manhattan's 25 miles; Brooklyn: no coordinates.
        ...(i === 0 ? { latitude: 40.7282, longitude: -73.7949 } : {}),
      }),
    ]);
    expect(result.code).toBe(0);
  }
});

afterAll(async () => {
  await backend?.dispose();
});

/** Runs the page's script as a browser would, at `pathname`; returns what it left on window and the requests it made. */
function runScript(convexUrl: string, pathname: string, savedLocation: string | null = null) {
  const requests: Array<{ url: string; body: { path: string; args: unknown[] } }> = [];
  const sandbox: Record<string, unknown> = {
    location: { pathname },
    localStorage: { getItem: (key: string) => (key === "userLocation" ? savedLocation : null) },
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
  return { left: sandbox[HTTP_FIRST_PAGE_GLOBAL] as HttpFirstPageRequest[] | undefined, requests };
}

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

test("on /scene the script asks the backend for the opening list's first page, and the list gets that page", async () => {
  const { left, requests } = runScript(`${backend.url}/`, "/scene/");
  // Both requests at once (Tonight's does not wait for the list's answer), the list's first.
  expect(requests).toHaveLength(2);
  expect(left).toHaveLength(2);
  expect(requests[0].url).toBe(`${backend.url}/api/query`);
  // The arguments the app's list subscribes with this hour, to the letter.
  const expected = JSON.parse(JSON.stringify(firstPageArgs(openingSceneArgs(Date.now()))));
  expect(requests[0].body).toEqual({ path: "scene:listPage", format: "convex_encoded_json", args: [expected] });
  const tonight = tonightFirstPageArgs(
    tonightArgs({ nowMs: Date.now(), timeZone: zone(), area: null, type: "all", search: "", filters: NO_PLAN_FILTERS }),
  );
  expect(requests[1].body).toEqual({
    path: "tonight:list",
    format: "convex_encoded_json",
    args: [JSON.parse(JSON.stringify(tonight))],
  });
  expect(left).toHaveLength(2);
  expect(await left![1].result).toMatchObject({ isDone: expect.any(Boolean) });

  const value = await left![0].result;
  expect(value).not.toBeNull();
  const page = jsonToConvex(value!) as unknown as ScenePage;
  const viaCli = await backend.cli(["run", "scene:listPage", JSON.stringify(expected)]);
  expect(viaCli.code).toBe(0);
  const direct = JSON.parse(viaCli.stdout) as ScenePage;
  expect(page.page.map((item) => item.title)).toEqual(direct.page.map((item) => item.title));
  expect(page.page.map((item) => item.title)).toEqual(expect.arrayContaining(["Early Page Mic 0", "Early Page Mic 1"]));

  // Handed over to the app: served for the opening arguments only.
  adoptHttpFirstPage(left);
  await left![0].result;
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
  for (const request of left!) expect(await request.result).toBeNull();
});

test("the script stays inside its <script> element whatever the backend address holds, and still asks that address", () => {
  const hostile = "https://example.convex.cloud/</script><script>alert(1)//<!--\u2028";
  const script = httpFirstPageScript(hostile);
  expect(script).not.toMatch(/<\/script|<script|<!--/i);
  const { requests } = runScript(hostile, "/scene");
  expect(requests.map((r) => r.url)).toEqual([`${hostile}/api/query`, `${hostile}/api/query`]);
});

test("with the distance filter left on under an hour ago, the script asks for the area's first page instead", async () => {
  retireHttpFirstPage();
  const saved = JSON.stringify({ lat: 40.7128, lng: -74.006, ts: Date.now() - 10 * 60_000, radiusMiles: 25 });
  const { left, requests } = runScript(backend.url, "/scene", saved);
  const area = { lat: 40.713, lng: -74.006, radiusMiles: 25 };
  await left![1].result;
  expect(requests.map((r) => r.body.path)).toEqual(["sceneArea:listArea", "tonight:list"]);
  expect(requests[0].body.args).toEqual([areaFirstPageArgs(area)]);
  expect((requests[1].body.args[0] as { area: unknown }).area).toEqual(area);

  adoptHttpFirstPage(left);
  const value = await left![0].result;
  await Promise.resolve();
  const page = httpPageFor<ScenePage>("sceneArea:listArea", areaFirstPageArgs(area));
  expect(value).not.toBeNull();
  // The mic in Queens is in the circle; the one without coordinates is not.
  expect(page?.page.map((item) => item.title)).toContain("Early Page Mic 0");
  expect(page?.page.map((item) => item.title)).not.toContain("Early Page Mic 1");
  expect(httpPageFor("sceneArea:listArea", areaFirstPageArgs({ ...area, radiusMiles: 5 }))).toBeUndefined();

  // Over an hour old, or the filter left off: the plain list.
  const stale = JSON.stringify({ lat: 40.7128, lng: -74.006, ts: Date.now() - 61 * 60_000, radiusMiles: 25 });
  expect(runScript(backend.url, "/scene", stale).requests[0].body.path).toBe("scene:listPage");
  const off = JSON.stringify({ lat: 40.7128, lng: -74.006, ts: Date.now() });
  expect(runScript(backend.url, "/scene", off).requests[0].body.path).toBe("scene:listPage");
});
