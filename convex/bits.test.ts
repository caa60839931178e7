import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  BIT_NOT_FOUND,
  BIT_SECONDS_MESSAGE,
  BIT_TITLE_REQUIRED,
  BIT_TITLE_TOO_LONG,
  BIT_TOO_MANY_TAGS,
  MAX_BIT_TITLE_LENGTH,
} from "./lib/bitRules";
import { expectAppError } from "./testing/test.expect";
import { createAdmin, createUser, newTest, type TestBackend, type TestUser } from "./testing/test.setup";

const page = { paginationOpts: { numItems: 50, cursor: null } };

type BitArgs = {
  title: string;
  notes?: string;
  tags?: string[];
  seconds?: number;
  status?: "new" | "working" | "tight" | "retired";
};

async function addBit(comic: TestUser, bit: BitArgs): Promise<Id<"bits">> {
  return await comic.asUser.mutation(api.bits.create, { tags: [], status: "new", ...bit });
}

async function titles(
  comic: TestUser,
  filter: { archived?: boolean; status?: "new" | "working" | "tight" | "retired"; tag?: string; search?: string } = {},
) {
  const result = await comic.asUser.query(api.bits.list, { ...page, archived: false, ...filter });
  return result.page.map((b) => b.title);
}

async function materialRows(t: TestBackend, userId: Id<"users">) {
  return await t.run(async (ctx) => {
    // A test may scan whole tables: it looks for any trace of the comedian.
    const bits = (await ctx.db.query("bits").collect()).filter((r) => r.userId === userId);
    const tags = (await ctx.db.query("bitTags").collect()).filter((r) => r.userId === userId);
    return { bits: bits.length, bitTags: tags.length };
  });
}

describe("bits: the library", () => {
  test("a bit is created with its fields trimmed and starts with no numbers", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const id = await addBit(comic, {
      title: "  Airport security  ",
      notes: " The bin ",
      tags: [" travel ", "Travel", "crowd"],
      seconds: 90,
      status: "working",
    });
    expect(await comic.asUser.query(api.bits.get, { id })).toMatchObject({
      title: "Airport security",
      notes: "The bin",
      tags: ["travel", "crowd"],
      seconds: 90,
      status: "working",
      archived: false,
      performed: 0,
      landedRate: null,
      lastPerformedAt: null,
      recent: [],
    });
  });

  test("lists in title order, filtered by status and by tag, archived bits apart", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await addBit(comic, { title: "Zoo", tags: ["animals"], status: "tight" });
    const dog = await addBit(comic, { title: "dog walker", tags: ["Animals", "city"], status: "working" });
    await addBit(comic, { title: "Bank", tags: ["city"], status: "tight" });
    expect(await titles(comic)).toEqual(["Bank", "dog walker", "Zoo"]);
    expect(await titles(comic, { status: "tight" })).toEqual(["Bank", "Zoo"]);
    expect(await titles(comic, { tag: "ANIMALS" })).toEqual(["dog walker", "Zoo"]);
    expect(await titles(comic, { tag: "animals", status: "working" })).toEqual(["dog walker"]);
    expect(await comic.asUser.query(api.bits.tags, {})).toEqual(["animals", "city"]);

    await comic.asUser.mutation(api.bits.setArchived, { id: dog, archived: true });
    expect(await titles(comic)).toEqual(["Bank", "Zoo"]);
    expect(await titles(comic, { tag: "animals" })).toEqual(["Zoo"]);
    expect(await titles(comic, { archived: true })).toEqual(["dog walker"]);
    expect(await titles(comic, { archived: true, tag: "city" })).toEqual(["dog walker"]);

    // An edit moves the bit's tag rows with it.
    await comic.asUser.mutation(api.bits.update, { id: dog, title: "Dog walker", tags: ["pets"], status: "tight" });
    expect(await titles(comic, { archived: true, tag: "city" })).toEqual([]);
    expect(await titles(comic, { archived: true, tag: "pets", status: "tight" })).toEqual(["Dog walker"]);
  });

  test("search finds words of the title, tags and notes, only in the caller's bits", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    await addBit(comic, { title: "Airport security", notes: "the grey bin" });
    await addBit(comic, { title: "Dentist", tags: ["medical"] });
    await addBit(other, { title: "Airport lounge" });
    expect(await titles(comic, { search: "airport" })).toEqual(["Airport security"]);
    expect(await titles(comic, { search: "bin" })).toEqual(["Airport security"]);
    expect(await titles(comic, { search: "medical" })).toEqual(["Dentist"]);
    expect(await titles(comic, { search: "   " })).toHaveLength(2);
  });

  test("caps: title, tags, length, search", async () => {
    const t = newTest();
    const comic = await createUser(t);
    await expectAppError(addBit(comic, { title: "   " }), "INVALID_INPUT", BIT_TITLE_REQUIRED);
    await expectAppError(
      addBit(comic, { title: "x".repeat(MAX_BIT_TITLE_LENGTH + 1) }),
      "INVALID_INPUT",
      BIT_TITLE_TOO_LONG,
    );
    await expect(addBit(comic, { title: "x".repeat(MAX_BIT_TITLE_LENGTH) })).resolves.toBeTruthy();
    await expectAppError(
      addBit(comic, { title: "Tags", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
      "INVALID_INPUT",
      BIT_TOO_MANY_TAGS,
    );
    for (const seconds of [0, 1801, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expectAppError(addBit(comic, { title: "Long", seconds }), "INVALID_INPUT", BIT_SECONDS_MESSAGE);
    }
    await expectAppError(titles(comic, { search: "s".repeat(101) }), "INVALID_INPUT");
  });

  test("a bit is never anyone else's: not another comedian's, not an admin's", async () => {
    const t = newTest();
    const owner = await createUser(t);
    const other = await createUser(t);
    const admin = await createAdmin(t);
    const id = await addBit(owner, { title: "Private bit", tags: ["secret"] });
    for (const caller of [other, admin]) {
      expect(await caller.asUser.query(api.bits.get, { id })).toBeNull();
      expect(await titles(caller)).toEqual([]);
      expect(await titles(caller, { tag: "secret" })).toEqual([]);
      expect(await caller.asUser.query(api.bits.tags, {})).toEqual([]);
      await expectAppError(
        caller.asUser.mutation(api.bits.update, { id, title: "Mine now", tags: [], status: "new" }),
        "NOT_FOUND",
        BIT_NOT_FOUND,
      );
      await expectAppError(caller.asUser.mutation(api.bits.setArchived, { id, archived: true }), "NOT_FOUND");
    }
    await expectAppError(t.query(api.bits.list, { ...page, archived: false }), "NOT_SIGNED_IN");
    expect(await owner.asUser.query(api.bits.get, { id })).toMatchObject({ title: "Private bit", archived: false });
  });

  test("the account export holds the bits; deleting the account deletes them and their tags", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    await addBit(comic, { title: "Exported", notes: "premise", tags: ["a", "b"], seconds: 30, status: "tight" });
    const kept = await addBit(other, { title: "Someone else's", tags: ["a"] });
    const exported = await comic.asUser.query(api.account.exportData, {});
    expect(exported.bits).toEqual([
      expect.objectContaining({ title: "Exported", notes: "premise", tags: ["a", "b"], seconds: 30, status: "tight" }),
    ]);
    expect(await materialRows(t, comic.userId)).toEqual({ bits: 1, bitTags: 2 });

    expect(await comic.asUser.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: true });
    expect(await materialRows(t, comic.userId)).toEqual({ bits: 0, bitTags: 0 });
    expect(await other.asUser.query(api.bits.get, { id: kept })).toMatchObject({ title: "Someone else's" });
    expect(await titles(other, { tag: "a" })).toEqual(["Someone else's"]);
  });
});
