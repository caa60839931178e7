/**
 * Old-format ids (a counter then the table name) resolve through a short list of the table
 * names stored data uses (ids.ts, legacyNames). Only stored ids add to it: ids a client
 * makes up (any function's `v.id` argument or `db.get` goes through tableNameFromId) must
 * not fill it, or every later old-format lookup scans 64 names and the made-up strings
 * stay in memory for good.
 */
import { describe, expect, test } from "vitest";
import { legacyNameCount, storedIdTable, tableNameFromId } from "../../local-backend/src/common/ids";

describe("old-format table names", () => {
  test("a stored id's table is kept; made-up ids from clients add nothing", () => {
    expect(storedIdTable("00000000000000000000000010000messages")).toBe("messages");
    expect(legacyNameCount()).toBe(1);
    for (let i = 0; i < 200; i++) {
      const made = `${i}${"z".repeat(i)}madeUp${i}`;
      expect(tableNameFromId(made)).toBe(made.slice(String(i).length));
    }
    expect(legacyNameCount()).toBe(1);
    // Stored and client ids of the stored table still resolve.
    expect(tableNameFromId("00000000000000000000000010001messages")).toBe("messages");
    expect(storedIdTable("00000000000000000000000010002messages")).toBe("messages");
    expect(legacyNameCount()).toBe(1);
  });

  test("refused old-format session ids still read as refused", () => {
    expect(storedIdTable("00000000000000000000000010000authSessions")).toBe(false);
    expect(tableNameFromId("00000000000000000000000010001authSessions")).toBeNull();
  });
});
