import { convexToJson, type JSONValue } from "convex/values";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  adoptHttpFirstPage,
  firstPageArgs,
  HTTP_FIRST_PAGE_MAX_AGE_MS,
  httpFirstPageFor,
  openingSceneArgs,
  retireHttpFirstPage,
} from "./firstPage";

const NOW = Date.UTC(2026, 10, 24, 20, 30);
const args = openingSceneArgs(NOW);
const page = { page: [{ _id: "abc123", title: "Mic" }], isDone: false, continueCursor: "cursor" };

/** Hands over a request as index.html's script leaves it, answered with `value`; resolves once it has been read. */
async function adopt(value: JSONValue | null, requestArgs: unknown = firstPageArgs(args)) {
  const result = Promise.resolve(value);
  adoptHttpFirstPage({ args: JSON.parse(JSON.stringify(requestArgs)), result });
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
