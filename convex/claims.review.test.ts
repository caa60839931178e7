import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { createAdmin, createSceneItem, createUser, newComicAndMic, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { getItem, ownEdit } from "./testing/test.claims";
import { allClaims, FIRST_PAGE } from "./testing/test.adminQueues";

describe("claims.submit and claims.mine", () => {
  test("a comedian claims a mic once while pending and sees their claim", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const micId = await createSceneItem(t);
    await expectAppError(t.mutation(api.claims.submit, { micId }), "NOT_SIGNED_IN");
    const claimId = await comic.asUser.mutation(api.claims.submit, { micId, message: "  I host it  " });
    await expectAppError(
      comic.asUser.mutation(api.claims.submit, { micId }),
      "ALREADY_EXISTS",
      "You already have a pending claim for this mic",
    );
    const mine = await comic.asUser.query(api.claims.mine, { micId });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ _id: claimId, status: "pending", message: "I host it", claimantId: comic.userId });
    // Another comedian may claim the same mic, and sees only their own claims.
    expect(await other.asUser.query(api.claims.mine, { micId })).toEqual([]);
    await other.asUser.mutation(api.claims.submit, { micId });
    expect(await other.asUser.query(api.claims.mine, { micId })).toHaveLength(1);
  });

  test("a denied claim can be filed again; messages over 1000 characters and inactive mics are refused", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const micId = await createSceneItem(t);
    const inactive = await createSceneItem(t, { status: "inactive" });
    await expectAppError(
      comic.asUser.mutation(api.claims.submit, { micId, message: "x".repeat(1001) }),
      "INVALID_INPUT",
    );
    await expectAppError(comic.asUser.mutation(api.claims.submit, { micId: inactive }), "NOT_FOUND");
    const first = await comic.asUser.mutation(api.claims.submit, { micId, message: "x".repeat(1000) });
    await admin.asUser.mutation(api.claims.review, { id: first, status: "denied" });
    await comic.asUser.mutation(api.claims.submit, { micId });
    const mine = await comic.asUser.query(api.claims.mine, { micId });
    expect(mine.map((c) => c.status)).toEqual(["pending", "denied"]);
  });
});

describe("claims.list and claims.review", () => {
  test("admin-only: anonymous and non-admin callers are refused and nothing changes", async () => {
    const { t, comic, mic: micId } = await newComicAndMic();
    const id = await comic.asUser.mutation(api.claims.submit, { micId });
    await expectAppError(t.query(api.claims.list, { queue: "pending", ...FIRST_PAGE }), "NOT_SIGNED_IN");
    await expectAppError(comic.asUser.query(api.claims.list, { queue: "pending", ...FIRST_PAGE }), "FORBIDDEN");
    await expectAppError(t.mutation(api.claims.review, { id, status: "approved" }), "NOT_SIGNED_IN");
    await expectAppError(comic.asUser.mutation(api.claims.review, { id, status: "approved" }), "FORBIDDEN");
    const claim = await t.run(async (ctx) => await ctx.db.get("micClaims", id));
    expect(claim!.status).toBe("pending");
    expect(claim!.reviewedAt).toBeUndefined();
  });

  test("lists newest first with mic title and claimant name; review stamps who and when, once", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const ann = await createUser(t, { name: "Ann Comic" });
    const bob = await createUser(t, { name: "Bob Comic" });
    const micA = await createSceneItem(t, { title: "Mic A" });
    const micB = await createSceneItem(t, { title: "Mic B" });
    const first = await ann.asUser.mutation(api.claims.submit, { micId: micA, message: "Mine" });
    const second = await bob.asUser.mutation(api.claims.submit, { micId: micB });
    const list = await allClaims(admin.asUser);
    expect(list.map((c) => [c._id, c.micTitle, c.claimantName, c.status])).toEqual([
      [second, "Mic B", "Bob Comic", "pending"],
      [first, "Mic A", "Ann Comic", "pending"],
    ]);
    const before = Date.now();
    await admin.asUser.mutation(api.claims.review, { id: first, status: "approved" });
    const reviewed = await t.run(async (ctx) => await ctx.db.get("micClaims", first));
    expect(reviewed).toMatchObject({ status: "approved", reviewedBy: admin.userId });
    expect(reviewed!.reviewedAt).toBeGreaterThanOrEqual(before);
    await expectAppError(admin.asUser.mutation(api.claims.review, { id: first, status: "denied" }), "INVALID_INPUT");
    expect((await t.run(async (ctx) => await ctx.db.get("micClaims", first)))!.status).toBe("approved");
    // An approved claimant cannot file another claim on the same mic.
    await expectAppError(ann.asUser.mutation(api.claims.submit, { micId: micA }), "ALREADY_EXISTS");
  });
});

describe("claims.revoke", () => {
  const TONIGHT = "2026-11-25";

  test("an admin revokes an approved claim: the claimant can no longer edit the mic, cancel or confirm nights, or host its list", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const micId = await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00" });
    const claimId = await comic.asUser.mutation(api.claims.submit, { micId });
    await admin.asUser.mutation(api.claims.review, { id: claimId, status: "approved" });
    // While approved the claimant manages the mic.
    expect((await comic.asUser.query(api.claims.ownerState, { micId })).canManage).toBe(true);
    await comic.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit });

    const before = Date.now();
    expect(await admin.asUser.mutation(api.claims.revoke, { id: claimId })).toBeNull();
    const revoked = await t.run(async (ctx) => await ctx.db.get("micClaims", claimId));
    expect(revoked).toMatchObject({ status: "revoked", revokedBy: admin.userId, reviewedBy: admin.userId });
    expect(revoked!.revokedAt).toBeGreaterThanOrEqual(before);

    // The claimant's view: no longer managing, their claim reads revoked.
    const state = await comic.asUser.query(api.claims.ownerState, { micId });
    expect(state.canManage).toBe(false);
    expect(state.claims.map((c) => c.status)).toEqual(["revoked"]);
    // The admin queue shows it revoked.
    expect((await allClaims(admin.asUser)).map((c) => [c._id, c.status])).toEqual([[claimId, "revoked"]]);

    const itemBefore = await getItem(t, micId);
    const notOwner = "Only the mic's approved claimant can change it";
    await expectAppError(
      comic.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit, title: "Still mine" }),
      "FORBIDDEN",
      notOwner,
    );
    await expectAppError(
      comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: TONIGHT, cancelled: true }),
      "FORBIDDEN",
      notOwner,
    );
    await expectAppError(
      comic.asUser.mutation(api.claims.setConfirmedDate, { micId, date: TONIGHT, confirmed: true }),
      "FORBIDDEN",
      notOwner,
    );
    await expectAppError(
      comic.asUser.mutation(api.nightLists.open, {
        micId,
        date: TONIGHT,
        spots: 3,
        lightMinutes: 1,
        mode: "first_come",
      }),
      "FORBIDDEN",
    );
    expect(await getItem(t, micId)).toEqual(itemBefore);
    expect(await t.run(async (ctx) => await ctx.db.query("nightLists").collect())).toEqual([]);
    // They may file a new claim for the admins to review.
    await comic.asUser.mutation(api.claims.submit, { micId });
  });

  test("only admins revoke; pending, denied and already revoked claims are refused with a clear message", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const comic = await createUser(t);
    const other = await createUser(t);
    const micId = await createSceneItem(t);
    const micB = await createSceneItem(t);
    const approved = await comic.asUser.mutation(api.claims.submit, { micId });
    await admin.asUser.mutation(api.claims.review, { id: approved, status: "approved" });
    await expectAppError(t.mutation(api.claims.revoke, { id: approved }), "NOT_SIGNED_IN");
    await expectAppError(other.asUser.mutation(api.claims.revoke, { id: approved }), "FORBIDDEN");
    // The claimant cannot revoke (or un-revoke) anything either.
    await expectAppError(comic.asUser.mutation(api.claims.revoke, { id: approved }), "FORBIDDEN");
    expect((await t.run(async (ctx) => await ctx.db.get("micClaims", approved)))!.status).toBe("approved");
    expect((await comic.asUser.query(api.claims.ownerState, { micId })).canManage).toBe(true);

    const pending = await other.asUser.mutation(api.claims.submit, { micId });
    const denied = await other.asUser.mutation(api.claims.submit, { micId: micB });
    await admin.asUser.mutation(api.claims.review, { id: denied, status: "denied" });
    const message = "Only an approved claim can be revoked";
    await expectAppError(admin.asUser.mutation(api.claims.revoke, { id: pending }), "INVALID_INPUT", message);
    await expectAppError(admin.asUser.mutation(api.claims.revoke, { id: denied }), "INVALID_INPUT", message);
    expect((await t.run(async (ctx) => await ctx.db.get("micClaims", pending)))!.status).toBe("pending");
    expect((await t.run(async (ctx) => await ctx.db.get("micClaims", denied)))!.status).toBe("denied");
    await admin.asUser.mutation(api.claims.revoke, { id: approved });
    await expectAppError(admin.asUser.mutation(api.claims.revoke, { id: approved }), "INVALID_INPUT", message);
    // A revoked claim cannot be reviewed back to approved.
    await expectAppError(
      admin.asUser.mutation(api.claims.review, { id: approved, status: "approved" }),
      "INVALID_INPUT",
    );
  });
});

describe("claim numbers", () => {
  test("each claim gets the next number, shown to the admin and the claimant; no two claims share one", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const ann = await createUser(t);
    const bob = await createUser(t);
    const micA = await createSceneItem(t);
    const micB = await createSceneItem(t);
    const a1 = await ann.asUser.mutation(api.claims.submit, { micId: micA });
    const b1 = await bob.asUser.mutation(api.claims.submit, { micId: micA });
    await admin.asUser.mutation(api.claims.review, { id: a1, status: "denied" });
    const a2 = await ann.asUser.mutation(api.claims.submit, { micId: micA });
    const b2 = await bob.asUser.mutation(api.claims.submit, { micId: micB });
    const list = await allClaims(admin.asUser);
    expect(list.map((c) => [c._id, c.number])).toEqual([
      [b2, 4],
      [a2, 3],
      [b1, 2],
      [a1, 1],
    ]);
    expect((await ann.asUser.query(api.claims.mine, { micId: micA })).map((c) => c.number)).toEqual([3, 1]);
    expect((await bob.asUser.query(api.claims.ownerState, { micId: micB })).claims.map((c) => c.number)).toEqual([4]);
  });

  test("the migration numbers claims filed before numbers existed, oldest first, in batches, after the highest number", async () => {
    vi.useFakeTimers();
    try {
      const t = newTest();
      const admin = await createAdmin(t);
      const comic = await createUser(t);
      const micId = await createSceneItem(t);
      const numbered = await comic.asUser.mutation(api.claims.submit, { micId });
      await admin.asUser.mutation(api.claims.review, { id: numbered, status: "denied" });
      // 150 claims written before the number field existed.
      const old = await t.run(async (ctx) => {
        const ids = [];
        for (let i = 0; i < 150; i++) {
          ids.push(await ctx.db.insert("micClaims", { micId, claimantId: comic.userId, status: "denied" }));
        }
        return ids;
      });
      expect((await allClaims(admin.asUser)).filter((c) => c.number === undefined)).toHaveLength(150);
      expect(await t.mutation(internal.claims.backfillNumbers, {})).toEqual({ updated: 100, more: true });
      await t.finishAllScheduledFunctions(vi.runAllTimers);
      const numbers = await t.run(
        async (ctx) => await Promise.all(old.map(async (id) => (await ctx.db.get("micClaims", id))!.number)),
      );
      expect(numbers).toEqual(Array.from({ length: 150 }, (_, i) => i + 2));
      expect(await t.mutation(internal.claims.backfillNumbers, {})).toEqual({ updated: 0, more: false });
      // New claims continue after the backfilled ones.
      await comic.asUser.mutation(api.claims.submit, { micId });
      const mine = await comic.asUser.query(api.claims.mine, { micId });
      expect(mine[0].number).toBe(152);
      const all = await t.run(async (ctx) => await ctx.db.query("micClaims").collect());
      expect(all).toHaveLength(152);
      expect(new Set(all.map((c) => c.number)).size).toBe(152);
    } finally {
      vi.useRealTimers();
    }
  });
});
