/**
 * Document ids (issue 13 item 1, see local-backend/src/common/ids.ts): new ids are
 * Convex's format, and a data directory written before that (ids a counter
 * followed by the table name) keeps working: its documents resolve, validate
 * as `v.id` of their table, and new documents get new-format ids beside them.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { decodeId } from "../../local-backend/src/common/ids";
import { api } from "./fixture/convex/_generated/api";
import type { Id } from "./fixture/convex/_generated/dataModel";
import { type Backend, startBackend, tempDir } from "./harness";

let backend: Backend | undefined;

afterAll(async () => {
  await backend?.dispose();
});

describe("ids in an existing data directory", () => {
  test("old counter ids still resolve and validate; new ids are Convex's", async () => {
    const dataDir = await tempDir();
    const legacy = ["00000000000000000000000010000messages", "00000000000000000000000010001messages"].map((id) =>
      id.slice(id.length - 32),
    );
    const entry = {
      ts: "1700000000000000000",
      w: legacy.map((id, i) => [
        id,
        { _id: id, _creationTime: 1700000000000 + i, channel: "old", author: "a", body: `old ${i}` },
      ]),
    };
    await writeFile(path.join(dataDir, "log.jsonl"), JSON.stringify(entry) + "\n");
    backend = await startBackend({ dataDir });
    const http = backend.httpClient();
    const before = await http.query(api.messages.list, { channel: "old" });
    expect(before.map((m) => m._id)).toEqual(legacy);
    // A v.id("messages") argument, patched in place.
    await expect(http.mutation(api.messages.rewrite, { id: legacy[0] as Id<"messages"> })).resolves.toBeNull();
    const fresh = await http.mutation(api.messages.send, { channel: "old", author: "b", body: "new" });
    expect(decodeId(fresh)).not.toBeNull();
    await backend.restart();
    const after = await backend.httpClient().query(api.messages.list, { channel: "old" });
    expect(after.map((m) => m._id)).toEqual([...legacy, fresh]);
    await backend.dispose();
    backend = undefined;
  }, 120_000);
});
