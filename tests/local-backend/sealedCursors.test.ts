/**
 * Pagination cursors and query journals the client cannot forge, as on Convex
 * (crates/keybroker/src/broker.rs: encrypt_cursor / decrypt_cursor,
 * encrypt_query_journal / decrypt_query_journal): both are sealed with a key
 * from the data directory's secret (local-backend/src/runtime/cursors.ts). A genuine
 * cursor pages on, also after a restart; a changed one, one from another data
 * directory, a hand-made `<fingerprint>:_end_cursor` and a hand-made journal
 * are refused, so no client reads past its page size that way.
 */
import { createHash } from "node:crypto";
import type { PaginationResult } from "convex/server";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Doc } from "./fixture/convex/_generated/dataModel";
import { type Backend, startBackend } from "./harness";
import { RawClient } from "./rawClient";

let backend: Backend;
let other: Backend;

beforeAll(async () => {
  [backend, other] = await Promise.all([startBackend(), startBackend()]);
  for (const b of [backend, other]) await b.httpClient().mutation(api.messages.seed, { channel: "sealed", count: 9 });
});

afterAll(async () => {
  await Promise.all([backend?.dispose(), other?.dispose()]);
});

type Page = PaginationResult<Doc<"messages">>;
type Opts = { numItems: number; cursor: string | null; endCursor?: string | null };

const page = (b: Backend, paginationOpts: Opts): Promise<Page> =>
  b.httpClient().query(api.messages.page, { channel: "sealed", paginationOpts });

/** The error a page asked with `paginationOpts` fails with (the test fails if it succeeds). */
async function refusal(b: Backend, paginationOpts: Opts): Promise<ConvexError<any>> {
  return await page(b, paginationOpts).then(
    (value) => {
      throw new Error(`expected a refused cursor, got ${value.page.length} rows: ${JSON.stringify(value)}`);
    },
    (e: unknown) => e as ConvexError<any>,
  );
}

/** Refused as a cursor that does not open: Convex's message, and the data that makes usePaginatedQuery start over. */
function expectUnopened(error: ConvexError<any>): void {
  expect(error).toBeInstanceOf(ConvexError);
  expect(error.message).toContain("Failed to parse cursor");
  expect(error.data).toEqual({ isConvexSystemError: true, paginationError: "InvalidCursor" });
}

/** Subscribes `messages:page` (query 0 of a new connection) with `journal`; its first modification. */
async function subscribeWithJournal(b: Backend, opts: Opts, journal: string | null): Promise<any> {
  const client = await RawClient.open(b);
  try {
    client.subscribe([
      { queryId: 0, udfPath: "messages:page", args: { channel: "sealed", paginationOpts: opts }, journal },
    ]);
    const transition = await client.waitForMessage(
      (m) => m.type === "Transition" && m.modifications.some((mod: any) => mod.queryId === 0),
      "query 0's first result",
    );
    return transition.modifications.find((mod: any) => mod.queryId === 0);
  } finally {
    await client.close();
  }
}

const bodies = (p: Page) => p.page.map((m) => m.body);

describe("sealed pagination cursors", () => {
  test("a genuine cursor pages on, and the same page gives the same cursor", async () => {
    const first = await page(backend, { numItems: 4, cursor: null });
    expect(bodies(first)).toEqual(["#0", "#1", "#2", "#3"]);
    expect((await page(backend, { numItems: 4, cursor: null })).continueCursor).toBe(first.continueCursor);
    const second = await page(backend, { numItems: 4, cursor: first.continueCursor });
    expect(bodies(second)).toEqual(["#4", "#5", "#6", "#7"]);
    const last = await page(backend, { numItems: 4, cursor: second.continueCursor });
    expect(bodies(last)).toEqual(["#8"]);
    expect(last.isDone).toBe(true);
    // A genuine end cursor still bounds a page (usePaginatedQuery's split pages).
    const bounded = await page(backend, { numItems: 2, cursor: null, endCursor: second.continueCursor });
    expect(bodies(bounded)).toEqual(["#0", "#1", "#2", "#3", "#4", "#5", "#6", "#7"]);
    // Nothing of the query or of convex-test's cursor shows in the clear.
    expect(first.continueCursor).not.toMatch(/:|_end_cursor|\$|"/);
  });

  test("a cursor with any one character changed is refused", async () => {
    const { continueCursor } = await page(backend, { numItems: 3, cursor: null });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < continueCursor.length; i++) {
      const swapped = alphabet[(alphabet.indexOf(continueCursor[i]) + 1) % alphabet.length] ?? "A";
      const changed = continueCursor.slice(0, i) + swapped + continueCursor.slice(i + 1);
      for (const opts of [
        { numItems: 3, cursor: changed },
        { numItems: 3, cursor: null, endCursor: changed },
      ]) {
        expectUnopened(await refusal(backend, opts));
      }
    }
  });

  test("a cursor from another data directory (another secret) is refused", async () => {
    const foreign = await page(other, { numItems: 3, cursor: null });
    expect(bodies(foreign)).toEqual(["#0", "#1", "#2"]);
    expectUnopened(await refusal(backend, { numItems: 3, cursor: foreign.continueCursor }));
    expectUnopened(await refusal(backend, { numItems: 3, cursor: null, endCursor: foreign.continueCursor }));
  });

  test("a hand-made `<fingerprint>:_end_cursor` cursor does not read past the page size", async () => {
    // The fingerprint the backend put in the clear before cursors were sealed.
    const query = {
      source: {
        type: "IndexRange",
        indexName: "messages.by_channel",
        range: [{ type: "Eq", fieldPath: "channel", value: "sealed" }],
        order: null,
      },
      operators: [],
    };
    const fingerprint = createHash("sha256").update(JSON.stringify(query)).digest("base64url").slice(0, 22);
    for (const forged of [`${fingerprint}:_end_cursor`, "_end_cursor"]) {
      expectUnopened(await refusal(backend, { numItems: 1, cursor: null, endCursor: forged }));
      expectUnopened(await refusal(backend, { numItems: 1, cursor: forged }));
    }
  });
});

describe("sealed query journals", () => {
  test("a hand-made journal fails the query (as Convex's decrypt_query_journal) and reads nothing past the page", async () => {
    const genuine = await subscribeWithJournal(backend, { numItems: 2, cursor: null }, null);
    expect(genuine.type).toBe("QueryUpdated");
    expect(genuine.value.page.map((m: any) => m.body)).toEqual(["#0", "#1"]);
    expect(typeof genuine.journal).toBe("string");
    const { continueCursor } = await page(backend, { numItems: 6, cursor: null });
    const foreign = await subscribeWithJournal(other, { numItems: 2, cursor: null }, null);
    for (const journal of [
      JSON.stringify({ endCursor: "_end_cursor" }),
      // A page's cursor is no journal (another key), and a journal from another data dir does not open.
      JSON.stringify({ endCursor: continueCursor }),
      foreign.journal,
    ]) {
      const mod = await subscribeWithJournal(backend, { numItems: 2, cursor: null }, journal);
      expect(mod.type, `journal ${journal}: ${JSON.stringify(mod)}`).toBe("QueryFailed");
      expect(mod.errorMessage).toContain("Failed to parse cursor");
      expect(mod.errorData).toEqual({ isConvexSystemError: true, paginationError: "InvalidCursor" });
      // Convex answers a journal that does not open with an empty one.
      expect(mod.journal).toBeNull();
    }
  });

  test("cursors and journals survive a restart on the same data directory; forged ones stay refused", async () => {
    const first = await page(backend, { numItems: 5, cursor: null });
    const subscribed = await subscribeWithJournal(backend, { numItems: 2, cursor: null }, null);
    await backend.httpClient().mutation(api.messages.send, { channel: "sealed", author: "t", body: "#0a" });
    await backend.restart();
    const next = await page(backend, { numItems: 5, cursor: first.continueCursor });
    expect(bodies(next)).toEqual(["#5", "#6", "#7", "#8", "#0a"]);
    // The journal from before the restart still pins its page end (the new row lands after it).
    const pinned = await subscribeWithJournal(backend, { numItems: 2, cursor: null }, subscribed.journal);
    expect(pinned.type).toBe("QueryUpdated");
    expect(pinned.value.page.map((m: any) => m.body)).toEqual(["#0", "#1"]);
    expect(pinned.journal).toBe(subscribed.journal);
    const changed = first.continueCursor.slice(0, -1) + (first.continueCursor.endsWith("A") ? "B" : "A");
    expectUnopened(await refusal(backend, { numItems: 5, cursor: changed }));
  });
});
