/**
 * Convex's transaction, document, time and cursor limits, enforced with
 * Convex's numbers and error texts (crates/common/src/knobs.rs,
 * crates/database/src/reads.rs and writes.rs), through a running backend and
 * the official clients.
 */
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
});

const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

function escape(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

describe("transaction limits", () => {
  test("rows a .filter drops count against the 32,000 documents read", async () => {
    const http = backend.httpClient();
    for (let from = 0; from < 40_000; from += 10_000) {
      await http.mutation(api.limits.fillBulk, { from, count: 10_000 });
    }
    // 30,000 rows read, none kept: under the limit.
    expect(await http.query(api.limits.filterNone, { below: 30_000 })).toBe(0);
    // 40,000 rows read, none kept: over it, as on Convex.
    await expect(http.query(api.limits.filterNone, {})).rejects.toThrow(
      escape(`Too many documents read in a single function execution (limit: 32000). ${OVER_LIMIT_HELP}`),
    );
  }, 120_000);

  test("bytes read count 16 MiB, dropped rows included", async () => {
    const http = backend.httpClient();
    // 30 documents of 600 KB: 18 MB, in two mutations (16 MiB written per mutation).
    await http.mutation(api.limits.fillBlobs, { count: 15, bytes: 600_000 });
    await http.mutation(api.limits.fillBlobs, { count: 15, bytes: 600_000 });
    const message = escape(
      `Too many bytes read in a single function execution (limit: 16777216 bytes). ${OVER_LIMIT_HELP}`,
    );
    await expect(http.query(api.limits.readBlobs, { keep: true })).rejects.toThrow(message);
    await expect(http.query(api.limits.readBlobs, { keep: false })).rejects.toThrow(message);
  }, 120_000);

  test("index ranges: 4,096 per function execution", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.limits.manyQueries, { count: 4_000 })).toBe(0);
    await expect(http.query(api.limits.manyQueries, { count: 4_097 })).rejects.toThrow(
      escape(`Too many reads in a single function execution (limit: 4096). ${OVER_LIMIT_HELP}`),
    );
  });

  test("the same range read again is not another range (Convex merges its read set)", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.messages.send, { channel: "same-get", author: "limits", body: "x" });
    expect(await http.query(api.limits.sameGet, { id, count: 5_000 })).toBe(5_000);
  });

  test("documents written: 16,000 per mutation; over it nothing commits", async () => {
    const http = backend.httpClient();
    await expect(http.mutation(api.limits.writeMany, { count: 16_001 })).rejects.toThrow(
      escape("Too many writes in a single function execution (limit: 16000)"),
    );
    expect(await http.query(api.limits.countWritten, {})).toBe(0);
    await http.mutation(api.limits.writeMany, { count: 16_000 });
    expect(await http.query(api.limits.countWritten, {})).toBe(16_000);
  }, 120_000);

  test("functions scheduled: Convex's text", async () => {
    const http = backend.httpClient();
    await expect(http.mutation(api.limits.manySchedules, { channel: "limits-text", count: 1_001 })).rejects.toThrow(
      escape("Too many functions scheduled by this mutation (limit: 1000)"),
    );
  });
});

describe("document limits", () => {
  test("a document over 1 MiB is refused, one under it stored; nothing commits", async () => {
    const http = backend.httpClient();
    await expect(http.mutation(api.limits.storeLarge, { bytes: 1_500_000 })).rejects.toThrow(
      escape("Value is too large (1.43 MiB > maximum size 1 MiB)"),
    );
    expect(await http.query(api.limits.countAnything, {})).toBe(0);
    await http.mutation(api.limits.storeLarge, { bytes: 1_000_000 });
    expect(await http.query(api.limits.countAnything, {})).toBe(1);
  });

  test("a patch that makes a document too large is refused", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.limits.storeValue, { value: "small" });
    await expect(http.mutation(api.limits.storeValue, { id, value: "y".repeat(1_100_000) })).rejects.toThrow(
      /Value is too large \(1\.05 MiB > maximum size 1 MiB\)/,
    );
  });

  test("arrays: 8,192 elements", async () => {
    const http = backend.httpClient();
    await http.mutation(api.limits.storeArray, { length: 8_192 });
    await expect(http.mutation(api.limits.storeArray, { length: 8_193 })).rejects.toThrow(
      escape("Array length is too long (8193 > maximum length 8192)"),
    );
  });

  test("nesting: 16 levels", async () => {
    const http = backend.httpClient();
    // The document is one level, `data` and its objects the rest.
    await http.mutation(api.limits.storeNested, { depth: 15 });
    await expect(http.mutation(api.limits.storeNested, { depth: 16 })).rejects.toThrow(
      escape("Document is too nested (nested 17 levels deep > maximum nesting 16)"),
    );
  });

  test("field names: no top-level '_' but the system fields, no '$', ASCII only", async () => {
    const http = backend.httpClient();
    await expect(http.mutation(api.limits.storeValue, { value: 1, field: "_secret" })).rejects.toThrow(
      escape("Field '_secret' starts with an underscore, which is only allowed for system fields like '_id'"),
    );
    await expect(http.mutation(api.limits.storeValue, { value: 1, field: "$where" })).rejects.toThrow(
      escape("Field name $where starts with a '$', which is reserved."),
    );
    await expect(http.mutation(api.limits.storeValue, { value: 1, field: "café" })).rejects.toThrow(
      /Field name café has invalid character 'é'/,
    );
    await http.mutation(api.limits.storeValue, { value: { _nested: 1 }, field: "ok" });
  });
});

/** Iterations of the fixture's busy loop: ~3 s of CPU on the test machine (timed with
 * process.cpuUsage), ~6 s here, and a short run. */
const BUSY_3S = 100_000_000;
const BUSY_6S = 200_000_000;
const BUSY_SHORT = 100_000;

describe("user code time", () => {
  test("a query gets 1 s: a busy query of seconds fails, a short one works", async () => {
    const http = backend.httpClient();
    expect(await http.query(api.limits.busyQuery, { iterations: BUSY_SHORT })).toBe(BUSY_SHORT);
    await expect(http.query(api.limits.busyQuery, { iterations: BUSY_6S })).rejects.toThrow(
      escape("Function execution timed out (maximum duration: 1s)"),
    );
  }, 120_000);

  test("a mutation over 1 s fails and commits nothing", async () => {
    const client = backend.client();
    await expect(
      client.mutation(api.limits.busyMutation, { channel: "too-slow", iterations: BUSY_3S }),
    ).rejects.toThrow(escape("Function execution timed out (maximum duration: 1s)"));
    expect(await client.query(api.messages.list, { channel: "too-slow" })).toEqual([]);
    await client.mutation(api.limits.busyMutation, { channel: "quick", iterations: BUSY_SHORT });
    expect(await client.query(api.messages.list, { channel: "quick" })).toHaveLength(1);
  }, 120_000);

  test("concurrent mutations each count only their own code: a crowd under 1 s each never times out", async () => {
    // Each computes about 0.3 s in 12 parts; run at once, their parts interleave on the one thread,
    // about 2.5 s of CPU in all while each runs.
    const crowd = Array.from({ length: 8 }, () => backend.httpClient());
    const results = await Promise.allSettled(
      crowd.map((client, i) =>
        client.mutation(api.limits.busyInSteps, { channel: `crowd-${i}`, iterations: BUSY_3S / 10, steps: 12 }),
      ),
    );
    expect(
      results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);

    // The same crowd as scheduled mutations (run again on a conflict without end): every one commits.
    const http = backend.httpClient();
    await http.mutation(api.limits.scheduleBusyInSteps, {
      prefix: "later",
      count: 8,
      iterations: BUSY_3S / 10,
      steps: 12,
    });
    await waitFor(
      async () => {
        const done = await Promise.all(
          Array.from({ length: 8 }, (_, i) => http.query(api.messages.list, { channel: `later-${i}` })),
        );
        return done.every((rows) => rows.length === 1);
      },
      { timeoutMs: 60_000, message: `every scheduled mutation to commit:\n${backend.outputSince(0).slice(-2000)}` },
    );
  }, 120_000);

  test("an action over its time (10 minutes; 1 s here through the knob) fails and commits nothing after", async () => {
    const short = await startBackend({ env: { ACTION_USER_TIMEOUT_SECONDS: "1" } });
    try {
      const client = short.client();
      await client.action(api.limits.slowAction, { channel: "quick-action", ms: 100 });
      expect(await client.query(api.messages.list, { channel: "quick-action" })).toHaveLength(1);
      await expect(client.action(api.limits.slowAction, { channel: "slow-action", ms: 2_000 })).rejects.toThrow(
        escape("Function execution timed out (maximum duration: 1s)"),
      );
      // The action's code wakes up after its time and tries to write: refused.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await client.query(api.messages.list, { channel: "slow-action" })).toEqual([]);
      // Queries and mutations keep Convex's 1 s meanwhile.
      await expect(client.query(api.limits.busyQuery, { iterations: BUSY_3S })).rejects.toThrow(/maximum duration: 1s/);
    } finally {
      await short.dispose();
    }
  }, 120_000);
});

describe("pagination cursors belong to their query", () => {
  const INVALID_CURSOR =
    "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.";

  test("a cursor from another query, index or range is refused with InvalidCursor; its own query takes it", async () => {
    const client = backend.client();
    for (let i = 0; i < 6; i++) {
      await client.mutation(api.messages.send, { channel: "cursor-a", author: "limits", body: `a${i}` });
      await client.mutation(api.messages.send, { channel: "cursor-b", author: "limits", body: `b${i}` });
    }
    const first = await client.query(api.messages.page, {
      channel: "cursor-a",
      paginationOpts: { numItems: 2, cursor: null },
    });
    expect(first.isDone).toBe(false);
    // The same query goes on from it.
    const second = await client.query(api.messages.page, {
      channel: "cursor-a",
      paginationOpts: { numItems: 2, cursor: first.continueCursor },
    });
    expect(second.page.map((m) => m.body)).toEqual(["a2", "a3"]);

    const refusals = [
      // The same function over another range of the index.
      client.query(api.messages.page, {
        channel: "cursor-b",
        paginationOpts: { numItems: 2, cursor: first.continueCursor },
      }),
      // Another query, on another index.
      client.query(api.limits.pageAllMessages, { paginationOpts: { numItems: 2, cursor: first.continueCursor } }),
    ];
    for (const refusal of refusals) {
      const error = await refusal.then(
        (value) => {
          throw new Error(`expected InvalidCursor, got ${JSON.stringify(value)}`);
        },
        (e: unknown) => e as ConvexError<any>,
      );
      expect(error).toBeInstanceOf(ConvexError);
      expect(error.message).toContain(INVALID_CURSOR);
      expect(error.data).toEqual({ isConvexSystemError: true, paginationError: "InvalidCursor" });
    }
    // A cursor nobody handed out.
    await expect(
      client.query(api.messages.page, { channel: "cursor-a", paginationOpts: { numItems: 2, cursor: '["1"]' } }),
    ).rejects.toThrow(/cursor/i);
  });
});
