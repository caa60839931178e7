import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { createAdmin, createSceneItem, createUser, newTest } from "./testing/test.setup";
import { expectAppError } from "./testing/test.expect";
import { getItem, ownEdit, approvedClaimant } from "./testing/test.claims";

describe("claims.updateOwnMic", () => {
  test("an approved claimant edits the description of their own mic only", async () => {
    const t = newTest();
    const micId = await createSceneItem(t, { checkInCount: 9, verifiedCheckIns30d: 2, lastVerifiedAt: 123 });
    const otherMic = await createSceneItem(t, { title: "Someone Else's" });
    const comic = await approvedClaimant(t, micId);
    const before = await getItem(t, micId);
    const saved = await comic.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit });
    expect(saved.title).toBe("My Mic Now");
    const after = await getItem(t, micId);
    expect(after).toMatchObject({
      ...ownEdit,
      searchText: "my mic now the test room new york",
      // What a claimant cannot touch stays as it was.
      venueName: before!.venueName,
      city: before!.city,
      status: "active",
      checkInCount: 9,
      verifiedCheckIns30d: 2,
      lastVerifiedAt: 123,
      type: "open_mic",
    });
    await expectAppError(
      comic.asUser.mutation(api.claims.updateOwnMic, { micId: otherMic, ...ownEdit }),
      "FORBIDDEN",
      "Only the mic's approved claimant can change it",
    );
    expect((await getItem(t, otherMic))!.title).toBe("Someone Else's");
  });

  test("counters, verification and status are not accepted as fields", async () => {
    const t = newTest();
    const micId = await createSceneItem(t);
    const comic = await approvedClaimant(t, micId);
    for (const extra of [
      { checkInCount: 99 },
      { status: "inactive" },
      { verifiedCheckIns30d: 5 },
      { venueName: "X" },
    ]) {
      await expect(
        comic.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit, ...extra } as never),
      ).rejects.toThrow();
    }
    expect(await getItem(t, micId)).toMatchObject({ checkInCount: 0, status: "active", title: "Test Mic" });
  });

  test("pending or denied claimants, other comedians and anonymous callers cannot edit; the creator can", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const creator = await createUser(t);
    const pending = await createUser(t);
    const denied = await createUser(t);
    const micId = await createSceneItem(t, { createdBy: creator.userId, title: "Original" });
    await pending.asUser.mutation(api.claims.submit, { micId });
    const deniedClaim = await denied.asUser.mutation(api.claims.submit, { micId });
    await admin.asUser.mutation(api.claims.review, { id: deniedClaim, status: "denied" });
    for (const caller of [pending, denied]) {
      await expectAppError(caller.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit }), "FORBIDDEN");
      await expectAppError(
        caller.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-12-01", cancelled: true }),
        "FORBIDDEN",
      );
    }
    await expectAppError(t.mutation(api.claims.updateOwnMic, { micId, ...ownEdit }), "NOT_SIGNED_IN");
    expect((await getItem(t, micId))!.title).toBe("Original");
    await creator.asUser.mutation(api.claims.updateOwnMic, { micId, ...ownEdit, title: "Creator's" });
    expect((await getItem(t, micId))!.title).toBe("Creator's");
  });

  test("empty optional fields are cleared, shows drop cost info, bad values are refused", async () => {
    const t = newTest();
    const showId = await createSceneItem(t, { type: "show", costInfo: null, hostName: "Old Host", notes: "Old" });
    const comic = await approvedClaimant(t, showId);
    await comic.asUser.mutation(api.claims.updateOwnMic, {
      micId: showId,
      ...ownEdit,
      hostName: "  ",
      notes: "",
      listTimeLocal: "",
    });
    const show = await getItem(t, showId);
    expect(show!.hostName).toBeUndefined();
    expect(show!.notes).toBeUndefined();
    expect(show!.listTimeLocal).toBeUndefined();
    expect(show!.costInfo).toBeNull();
    expect(show!.signupMethod).toBeUndefined();
    for (const bad of [{ title: " " }, { startTimeLocal: "7pm" }, { performanceMinutes: 61 }, { signupLink: "nope" }]) {
      await expectAppError(
        comic.asUser.mutation(api.claims.updateOwnMic, { micId: showId, ...ownEdit, ...bad }),
        "INVALID_INPUT",
      );
    }
  });
});

describe("claims.setCancelledDate", () => {
  test("an approved claimant cancels and restores single nights", async () => {
    const t = newTest();
    const micId = await createSceneItem(t);
    const comic = await approvedClaimant(t, micId);
    const stranger = await createUser(t);
    expect(
      await comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-12-07", cancelled: true }),
    ).toEqual(["2026-12-07"]);
    await comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-11-30", cancelled: true });
    await comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-11-30", cancelled: true });
    expect((await getItem(t, micId))!.cancelledDates).toEqual(["2026-11-30", "2026-12-07"]);
    // The scene sees the cancelled dates.
    expect((await t.query(api.scene.get, { id: micId }))!.cancelledDates).toEqual(["2026-11-30", "2026-12-07"]);
    await comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-12-07", cancelled: false });
    expect((await getItem(t, micId))!.cancelledDates).toEqual(["2026-11-30"]);
    await expectAppError(
      comic.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-02-30", cancelled: true }),
      "INVALID_INPUT",
    );
    await expectAppError(
      stranger.asUser.mutation(api.claims.setCancelledDate, { micId, date: "2026-12-01", cancelled: true }),
      "FORBIDDEN",
    );
    expect((await getItem(t, micId))!.cancelledDates).toEqual(["2026-11-30"]);
  });
});

describe("claims.ownerState", () => {
  test("says who may manage the mic: the creator until a claim is approved, then the approved claimant", async () => {
    const t = newTest();
    const admin = await createAdmin(t);
    const creator = await createUser(t);
    const comic = await createUser(t);
    const micId = await createSceneItem(t, { createdBy: creator.userId });
    await expectAppError(t.query(api.claims.ownerState, { micId }), "NOT_SIGNED_IN");
    expect(await creator.asUser.query(api.claims.ownerState, { micId })).toEqual({
      claims: [],
      canManage: true,
      canHost: false,
    });
    const claimId = await comic.asUser.mutation(api.claims.submit, { micId });
    const pending = await comic.asUser.query(api.claims.ownerState, { micId });
    expect(pending.canManage).toBe(false);
    expect(pending.claims.map((c) => c.status)).toEqual(["pending"]);
    await admin.asUser.mutation(api.claims.review, { id: claimId, status: "approved" });
    expect(await comic.asUser.query(api.claims.ownerState, { micId })).toMatchObject({
      canManage: true,
      canHost: true,
    });
    expect(await creator.asUser.query(api.claims.ownerState, { micId })).toMatchObject({
      canManage: false,
      canHost: false,
    });
  });
});
