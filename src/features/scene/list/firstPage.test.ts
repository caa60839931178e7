import { convexToJson, type JSONValue } from "convex/values";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  adoptHttpFirstPage,
  areaFirstPageArgs,
  firstPageArgs,
  HTTP_FIRST_PAGE_MAX_AGE_MS,
  httpFirstPageFor,
  httpPageFor,
  OPENING_CONSTANTS,
  openingQueries,
  openingSceneArgs,
  prewarmAreaFirstPage,
  retireHttpFirstPage,
  tonightFirstPageArgs,
} from "./firstPage";
import type { ConvexReactClient } from "convex/react";
import { getFunctionName } from "convex/server";
import { areaCenter, SCENE_PAGE_SIZE } from "./listPaging";
import { readRememberedArea } from "../filters/location";
import { NO_PLAN_FILTERS, tonightArgs } from "../tonight/tonightArgs";

const NOW = Date.UTC(2026, 10, 24, 20, 30);
const args = openingSceneArgs(NOW);
const page = { page: [{ _id: "abc123", title: "Mic" }], isDone: false, continueCursor: "cursor" };

/** Hands over a request as index.html's script leaves it, answered with `value`; resolves once it has been read. */
async function adopt(value: JSONValue | null, requestArgs: unknown = firstPageArgs(args)) {
  const result = Promise.resolve(value);
  adoptHttpFirstPage([{ path: "scene:listPage", args: JSON.parse(JSON.stringify(requestArgs)), result }]);
  await result;
  await Promise.resolve();
}

afterEach(() => {
  retireHttpFirstPage();
  vi.useRealTimers();
});

describe("the first page fetched with the HTML", () => {
  test("stands in for the list's opening arguments only", async () => {
    await adopt(convexToJson(page));
    expect(httpFirstPageFor(args)).toEqual(page);
    expect(httpFirstPageFor({ ...args, search: "queens" })).toBeUndefined();
    expect(httpFirstPageFor({ ...args, nowMs: args.nowMs + 3_600_000 })).toBeUndefined();
    expect(httpFirstPageFor(null)).toBeUndefined();
  });

  test("is retired once a live page is in, and after 30 s whatever happens", async () => {
    await adopt(convexToJson(page));
    retireHttpFirstPage();
    expect(httpFirstPageFor(args)).toBeUndefined();

    vi.useFakeTimers();
    await adopt(convexToJson(page));
    expect(httpFirstPageFor(args)).toEqual(page);
    vi.advanceTimersByTime(HTTP_FIRST_PAGE_MAX_AGE_MS - 1);
    expect(httpFirstPageFor(args)).toEqual(page);
    vi.advanceTimersByTime(1);
    expect(httpFirstPageFor(args)).toBeUndefined();
  });

  test("anything but a page of the list's shape is left out", async () => {
    for (const answer of [
      {},
      { page: "not a list", isDone: false, continueCursor: "c" },
      { page: [{ title: "no id" }], isDone: false, continueCursor: "c" },
      { page: [], isDone: "no", continueCursor: "c" },
      { $integer: "not base64!" },
      null,
    ] as JSONValue[]) {
      await adopt(answer);
      expect(httpFirstPageFor(args)).toBeUndefined();
    }
  });
});

describe("the queries the scene opens with (index.html's script and the app's subscriptions)", () => {
  const TZ = "America/Chicago";
  const saved = (entry: Record<string, unknown>) => JSON.stringify({ lat: 40.71284, lng: -74.00601, ...entry });
  let store: Map<string, string>;
  afterEach(() => vi.unstubAllGlobals());
  const remembered = (raw: string | null) => {
    store = new Map(raw === null ? [] : [["userLocation", raw]]);
    vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null });
    return readRememberedArea(NOW);
  };

  test("without a remembered area: the plain list and Tonight everywhere, with the page's own arguments", () => {
    for (const raw of [
      null,
      "not json",
      saved({ ts: NOW - 10 * 60_000 }), // no filter left on
      saved({ ts: NOW - 61 * 60_000, radiusMiles: 25 }), // over an hour old
      saved({ ts: NOW, radiusMiles: 7 }), // not a slider value
      saved({ ts: NOW, radiusMiles: 55 }),
      saved({ ts: "now", radiusMiles: 25 }),
    ]) {
      const q = openingQueries(NOW, raw, TZ, OPENING_CONSTANTS);
      expect(q.area, String(raw)).toBeNull();
      expect(remembered(raw), String(raw)).toBeNull();
      expect(q.list).toEqual({ path: "scene:listPage", args: firstPageArgs(openingSceneArgs(NOW)) });
      const tonight = tonightArgs({
        nowMs: NOW,
        timeZone: TZ,
        area: null,
        type: "all",
        search: "",
        filters: NO_PLAN_FILTERS,
      });
      expect(q.tonight).toEqual({ path: "tonight:list", args: tonightFirstPageArgs(tonight) });
      // Field order too: the client keys its subscriptions by the arguments' JSON.
      expect(JSON.stringify(q.tonight.args)).toBe(JSON.stringify(tonightFirstPageArgs(tonight)));
    }
  });

  test("with the distance filter left on under an hour ago: the area's list and Tonight, as the page asks", () => {
    const raw = saved({ ts: NOW - 59 * 60_000, radiusMiles: 15 });
    const q = openingQueries(NOW, raw, TZ, OPENING_CONSTANTS);
    const page = remembered(raw);
    expect(page).toEqual({ location: { lat: 40.71284, lng: -74.00601 }, radiusMiles: 15 });
    const area = { ...areaCenter(page!.location), radiusMiles: 15 };
    expect(q.area).toEqual(area);
    expect(q.list).toEqual({ path: "sceneArea:listArea", args: areaFirstPageArgs(area) });
    expect(JSON.stringify(q.list.args)).toBe(JSON.stringify(areaFirstPageArgs(area)));
    const tonight = tonightArgs({ nowMs: NOW, timeZone: TZ, area, type: "all", search: "", filters: NO_PLAN_FILTERS });
    expect(JSON.stringify(q.tonight.args)).toBe(JSON.stringify(tonightFirstPageArgs(tonight)));
  });

  test("a Tonight page fetched with the HTML stands in for its own arguments only", async () => {
    const tonight = tonightFirstPageArgs(
      tonightArgs({ nowMs: NOW, timeZone: TZ, area: null, type: "all", search: "", filters: NO_PLAN_FILTERS }),
    );
    const nights = { page: [{ item: { _id: "abc" }, date: "2026-11-24" }], isDone: true, continueCursor: "c" };
    const result = Promise.resolve(convexToJson(nights));
    adoptHttpFirstPage([{ path: "tonight:list", args: JSON.parse(JSON.stringify(tonight)), result }]);
    await result;
    await Promise.resolve();
    expect(httpPageFor("tonight:list", tonight)).toEqual(nights);
    expect(httpPageFor("tonight:list", { ...tonight, type: "show" })).toBeUndefined();
    expect(httpPageFor("scene:listPage", tonight)).toBeUndefined();
    // The plain list's retirement leaves Tonight's page in place.
    retireHttpFirstPage(args);
    expect(httpPageFor("tonight:list", tonight)).toEqual(nights);
  });
});

describe("turning the distance filter on", () => {
  test("asks at once for the very first page the area list subscribes to, at the rounded point", () => {
    const asked: Array<{ query: Parameters<typeof getFunctionName>[0]; args: unknown }> = [];
    const client = { prewarmQuery: (o: (typeof asked)[number]) => void asked.push(o) };
    prewarmAreaFirstPage(client as unknown as ConvexReactClient, { lat: 40.71284, lng: -74.00603 }, 25);
    expect(asked).toHaveLength(1);
    expect(getFunctionName(asked[0].query)).toBe("sceneArea:listArea");
    // The list's paging hook (convex-helpers) asks for its arguments plus the first page's options, in this order:
    // the client matches queries by their JSON, so any other order or rounding would be a second query.
    expect(JSON.stringify(asked[0].args)).toBe(
      JSON.stringify({
        lat: 40.713,
        lng: -74.006,
        radiusMiles: 25,
        paginationOpts: { numItems: SCENE_PAGE_SIZE, cursor: null },
      }),
    );
  });
});
