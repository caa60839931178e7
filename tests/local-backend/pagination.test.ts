import type { FunctionArgs, PaginationResult } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Doc } from "./fixture/convex/_generated/dataModel";
import { type Backend, startBackend, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

/** What the client's paginated subscription delivers (as usePaginatedQuery does). */
type PaginatedQueryResult<T> = {
  results: T[];
  status: "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted";
  loadMore: (numItems: number) => boolean;
};

const numbered = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `#${from + i}`);

describe("paginated queries", () => {
  test("pages through a table with cursors until done (ConvexHttpClient)", async () => {
    const http = backend.httpClient();
    await http.mutation(api.messages.seed, { channel: "cursor", count: 23 });
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const page: PaginationResult<Doc<"messages">> = await http.query(api.messages.page, {
        channel: "cursor",
        paginationOpts: { numItems: 5, cursor },
      });
      seen.push(...page.page.map((m) => m.body));
      pageSizes.push(page.page.length);
      if (page.isDone) break;
      expect(typeof page.continueCursor).toBe("string");
      cursor = page.continueCursor;
    }
    expect(seen).toEqual(numbered(0, 23));
    expect(pageSizes.slice(0, 4)).toEqual([5, 5, 5, 5]);
    expect(pageSizes.reduce((a, b) => a + b, 0)).toBe(23);
  });

  test("loads more pages and stays reactive like usePaginatedQuery (ConvexClient)", async () => {
    const writer = backend.httpClient();
    await writer.mutation(api.messages.seed, { channel: "react", count: 25 });

    const client = backend.client();
    const results: PaginatedQueryResult<Doc<"messages">>[] = [];
    const sub = client.onPaginatedUpdate_experimental(
      api.messages.page,
      // The client adds paginationOpts itself, as usePaginatedQuery does.
      { channel: "react" } as unknown as FunctionArgs<typeof api.messages.page>,
      { initialNumItems: 10 },
      (result) => {
        results.push(result as unknown as PaginatedQueryResult<Doc<"messages">>);
      },
      (error) => {
        throw error;
      },
    );
    const latest = () => results[results.length - 1];
    const waitForLatest = async (predicate: (r: PaginatedQueryResult<Doc<"messages">>) => boolean, message: string) =>
      await waitFor(() => results.length > 0 && predicate(latest()), {
        message: `${message} (latest: ${JSON.stringify(latest() && { status: latest().status, bodies: latest().results.map((m) => m.body) })})`,
      });
    const bodies = () => latest().results.map((m) => m.body);

    await waitForLatest((r) => r.status === "CanLoadMore" && r.results.length === 10, "the first page");
    expect(bodies()).toEqual(numbered(0, 10));

    expect(latest().loadMore(10)).toBe(true);
    await waitForLatest((r) => r.status === "CanLoadMore" && r.results.length === 20, "the second page");
    expect(bodies()).toEqual(numbered(0, 20));

    latest().loadMore(10);
    await waitForLatest((r) => r.status === "Exhausted", "the last page");
    expect(bodies()).toEqual(numbered(0, 25));

    // New rows appear at the end of the loaded range, removed ones disappear from
    // whichever page held them.
    await writer.mutation(api.messages.send, { channel: "react", author: "w", body: "#25" });
    await waitForLatest((r) => r.results.length === 26, "the new message");
    expect(bodies()).toEqual(numbered(0, 26));

    // Each page keeps the end it first had (the server pins it), so a removal
    // shrinks its page instead of pulling in the next page's first row.
    const third = latest().results[3];
    const fifteenth = latest().results[15];
    await writer.mutation(api.messages.remove, { id: third._id });
    await waitForLatest((r) => !r.results.some((m) => m.body === "#3"), "#3 removed");
    expect(bodies()).toEqual(numbered(0, 26).filter((b) => b !== "#3"));
    await writer.mutation(api.messages.remove, { id: fifteenth._id });
    await waitForLatest((r) => !r.results.some((m) => m.body === "#15"), "#15 removed");
    expect(bodies()).toEqual(numbered(0, 26).filter((b) => b !== "#3" && b !== "#15"));

    // Writes to another channel do not disturb the pages.
    const count = results.length;
    await writer.mutation(api.messages.seed, { channel: "other-channel", count: 3 });
    await writer.mutation(api.messages.send, { channel: "react", author: "w", body: "#26" });
    await waitForLatest((r) => r.results.length === 25, "the last message");
    expect(results.length).toBe(count + 1);
    expect(latest().status).toBe("Exhausted");
    sub.unsubscribe();
  });

  test("an invalid cursor is an error, not a crash", async () => {
    const http = backend.httpClient();
    await expect(
      http.query(api.messages.page, { channel: "cursor", paginationOpts: { numItems: 5, cursor: "not-a-cursor" } }),
    ).rejects.toThrow();
    const page = await http.query(api.messages.page, {
      channel: "cursor",
      paginationOpts: { numItems: 2, cursor: null },
    });
    expect(page.page.map((m) => m.body)).toEqual(["#0", "#1"]);
  });
});
