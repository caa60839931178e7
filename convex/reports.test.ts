import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { createAdmin, createSceneItem, createUser, newComicAndMic, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { allOpenReports, FIRST_PAGE } from "./testing/test.adminQueues";

describe("reports.submit", () => {
  test("a signed-in comedian reports a mic; other needs a note; anonymous callers are refused", async () => {
    const { t, comic, mic: micId } = await newComicAndMic();
    await expectAppError(t.mutation(api.reports.submit, { micId, kind: "wrong_time" }), "NOT_SIGNED_IN");
    await expectAppError(
      comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "   " }),
      "INVALID_INPUT",
      "Please describe the problem",
    );
    await expectAppError(
      comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "x".repeat(1001) }),
      "INVALID_INPUT",
    );
    const id = await comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: " Moved to Tuesdays " });
    const report = await t.run(async (ctx) => await ctx.db.get("problemReports", id));
    expect(report).toMatchObject({
      micId,
      reporterId: comic.userId,
      kind: "other",
      note: "Moved to Tuesdays",
      status: "open",
    });
    await comic.asUser.mutation(api.reports.submit, { micId, kind: "no_longer_runs" });
    await expectAppError(
      comic.asUser.mutation(api.reports.submit, { micId, kind: "no_longer_runs" }),
      "ALREADY_EXISTS",
      "You already reported this problem",
    );
  });
});

describe("reports.list and reports.resolve", () => {
  test("admin-only: anonymous and non-admin callers are refused and nothing changes", async () => {
    const { t, comic, mic: micId } = await newComicAndMic();
    const id = await comic.asUser.mutation(api.reports.submit, { micId, kind: "no_longer_runs" });
    await expectAppError(t.query(api.reports.list, FIRST_PAGE), "NOT_SIGNED_IN");
    await expectAppError(comic.asUser.query(api.reports.list, FIRST_PAGE), "FORBIDDEN");
    await expectAppError(t.mutation(api.reports.resolve, { id, action: "deactivate" }), "NOT_SIGNED_IN");
    await expectAppError(comic.asUser.mutation(api.reports.resolve, { id, action: "deactivate" }), "FORBIDDEN");
    expect((await t.run(async (ctx) => await ctx.db.get("problemReports", id)))!.status).toBe("open");
    expect((await t.run(async (ctx) => await ctx.db.get("sceneItems", micId)))!.status).toBe("active");
  });

  test("open reports newest first with mic title and reporter; dismiss and edited close them", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t, { name: "Rita Reporter" });
    const micId = await createSceneItem(t, { title: "Reported Mic" });
    const first = await comic.asUser.mutation(api.reports.submit, { micId, kind: "wrong_time" });
    const second = await comic.asUser.mutation(api.reports.submit, { micId, kind: "other", note: "Closed" });
    const list = await allOpenReports(admin.asUser);
    expect(list.map((r) => [r._id, r.micTitle, r.reporterName, r.kind])).toEqual([
      [second, "Reported Mic", "Rita Reporter", "other"],
      [first, "Reported Mic", "Rita Reporter", "wrong_time"],
    ]);
    await admin.asUser.mutation(api.reports.resolve, { id: second, action: "dismiss" });
    await admin.asUser.mutation(api.reports.resolve, { id: first, action: "edited" });
    expect(await allOpenReports(admin.asUser)).toEqual([]);
    const [a, b] = await t.run(
      async (ctx) => await Promise.all([ctx.db.get("problemReports", first), ctx.db.get("problemReports", second)]),
    );
    expect(a).toMatchObject({ status: "resolved", resolvedBy: admin.userId });
    expect(b).toMatchObject({ status: "dismissed", resolvedBy: admin.userId });
    expect(a!.resolvedAt).toBeTypeOf("number");
    await expectAppError(admin.asUser.mutation(api.reports.resolve, { id: first, action: "dismiss" }), "INVALID_INPUT");
    expect((await t.query(api.scene.get, { id: micId }))!.status).toBe("active");
  });

  test("deactivate takes the mic off the scene and resolves its other open reports", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const ann = await createUser(t);
    const bob = await createUser(t);
    const micId = await createSceneItem(t, { city: "Portland" });
    const keepId = await createSceneItem(t, { title: "Keep", city: "Seattle" });
    const id = await ann.asUser.mutation(api.reports.submit, { micId, kind: "no_longer_runs" });
    await bob.asUser.mutation(api.reports.submit, { micId, kind: "no_longer_runs" });
    const keep = await bob.asUser.mutation(api.reports.submit, { micId: keepId, kind: "wrong_time" });
    expect((await t.query(api.community.stats, {})).venues).toBe(2);
    await admin.asUser.mutation(api.reports.resolve, { id, action: "deactivate" });
    expect(await t.query(api.scene.get, { id: micId })).toBeNull();
    expect((await t.query(api.community.stats, {})).venues).toBe(1);
    expect((await t.query(api.community.stats, {})).cities).toBe(1);
    const open = await allOpenReports(admin.asUser);
    expect(open.map((r) => r._id)).toEqual([keep]);
  });
});
