import { afterEach, describe, expect, test, vi } from "vitest";
import {
  areaCenter,
  debouncer,
  hasMoreToShow,
  nextLimit,
  pagedSceneView,
  resultCountText,
  revealedSlice,
  roundCoord,
  SCENE_PAGE_SIZE,
} from "./listPaging";

describe("nextLimit", () => {
  test.each([
    ["first step from 24 of 180", 24, 180, 48],
    ["a step past the end still adds a page", 24, 30, 48],
    ["counts from what is shown when the limit ran ahead", 96, 10, 34],
    ["nothing matches yet", 48, 0, 24],
  ])("%s", (_name, limit, matching, expected) => {
    expect(nextLimit(limit, matching)).toBe(expected);
  });

  test("the step is the page size unless given", () => {
    expect(SCENE_PAGE_SIZE).toBe(24);
    expect(nextLimit(10, 100, 5)).toBe(15);
  });
});

describe("hasMoreToShow", () => {
  test.each([
    [24, 180, false, true],
    [24, 24, false, false],
    [48, 30, false, false],
    [48, 30, true, true],
    [24, 0, true, true],
  ])("limit %i, %i matching, can load more %s -> %s", (limit, matching, canLoadMore, expected) => {
    expect(hasMoreToShow(limit, matching, canLoadMore)).toBe(expected);
  });
});

describe("rounding the area's point", () => {
  test.each([
    [40.73064, 40.731],
    [40.73049, 40.73],
    [-73.98661, -73.987],
    [0, 0],
  ])("%f -> %f", (input, expected) => {
    expect(roundCoord(input)).toBeCloseTo(expected, 9);
  });

  test("jitter within a few metres keeps the same arguments", () => {
    const a = areaCenter({ lat: 40.73061, lng: -73.98662 });
    const b = areaCenter({ lat: 40.73058, lng: -73.98657 });
    expect(a).toEqual(b);
    expect(a).toEqual({ lat: 40.731, lng: -73.987 });
  });
});

describe("resultCountText", () => {
  test.each([
    [
      "part of a long list",
      { shown: 24, matching: 180, total: 180, complete: true, nearby: false },
      "Showing 24 of 180 events",
    ],
    [
      "part of a filtered list",
      { shown: 24, matching: 30, total: 1000, complete: true, nearby: false },
      "Showing 24 of 30 events",
    ],
    ["everything, unfiltered", { shown: 12, matching: 12, total: 12, complete: true, nearby: false }, "12 events"],
    ["everything that matches", { shown: 3, matching: 3, total: 40, complete: true, nearby: true }, "3 events of 40"],
    ["one", { shown: 1, matching: 1, total: 1, complete: true, nearby: false }, "1 event"],
    ["none", { shown: 0, matching: 0, total: 40, complete: true, nearby: true }, "0 events of 40"],
    [
      "area pages left",
      { shown: 24, matching: 24, total: 24, complete: false, nearby: true },
      "Showing 24 events nearby so far",
    ],
    [
      "area pages left, one so far",
      { shown: 1, matching: 1, total: 24, complete: false, nearby: true },
      "Showing 1 event nearby so far",
    ],
    // The server-paged scene knows no total until its last page: it never claims one.
    [
      "scene pages left",
      { shown: 24, matching: 24, total: 24, complete: false, nearby: false },
      "Showing 24 events so far",
    ],
    [
      "scene pages left, none match yet",
      { shown: 0, matching: 0, total: 0, complete: false, nearby: false },
      "Showing 0 events so far",
    ],
  ])("%s", (_name, input, expected) => {
    expect(resultCountText(input)).toBe(expected);
  });
});

describe("revealedSlice", () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ _id: `m${i}` }));
  const ids = (list: { _id: string }[]) => list.map((i) => i._id);

  test("without pinned cards it is the first `limit`", () => {
    expect(ids(revealedSlice(items, 3, new Set()))).toEqual(["m0", "m1", "m2"]);
  });

  test("pinned cards past the limit stay, in list order", () => {
    expect(ids(revealedSlice(items, 2, new Set(["m8", "m5", "m1", "gone"])))).toEqual(["m0", "m1", "m5", "m8"]);
  });
});

describe("debouncer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("settles on the last value once the delay passes without another push", () => {
    vi.useFakeTimers();
    const settled: string[] = [];
    const d = debouncer<string>(250, (value) => settled.push(value));
    d.push("c");
    vi.advanceTimersByTime(200);
    d.push("ce");
    vi.advanceTimersByTime(200);
    d.push("cel");
    expect(settled).toEqual([]);
    vi.advanceTimersByTime(249);
    expect(settled).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(settled).toEqual(["cel"]);
    d.push("cell");
    vi.advanceTimersByTime(250);
    expect(settled).toEqual(["cel", "cell"]);
  });

  test("cancel drops the pending value", () => {
    vi.useFakeTimers();
    const settled: string[] = [];
    const d = debouncer<string>(250, (value) => settled.push(value));
    d.push("x");
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(settled).toEqual([]);
  });
});

describe("pagedSceneView", () => {
  test.each([
    ["first load", { status: "LoadingFirstPage", loaded: 0, filtered: false }, "skeleton"],
    ["an empty scene", { status: "Exhausted", loaded: 0, filtered: false }, "start-your-scene"],
    ["nothing matches the filters", { status: "Exhausted", loaded: 0, filtered: true }, "list"],
    ["pages left, none matching yet", { status: "CanLoadMore", loaded: 0, filtered: false }, "list"],
    ["loaded", { status: "CanLoadMore", loaded: 24, filtered: false }, "list"],
    ["loading more", { status: "LoadingMore", loaded: 24, filtered: true }, "list"],
  ] as const)("%s", (_name, input, expected) => {
    expect(pagedSceneView(input)).toBe(expected);
  });
});
