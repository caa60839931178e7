import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { FIRST_PAGE } from "./testing/test.adminQueues";
import { expectAppError } from "./testing/test.expect";
import { getItem } from "./testing/test.claims";
import { createAdmin, createSceneItem, createUser, newTest } from "./testing/test.setup";

/** Three comedians claim one mic (another comedian claims another); the admin and the claimants. */
async function threeClaims() {
  const t = newTest();
  const admin = await createAdmin(t);
  const [ann, bob, cat, dan] = [
    await createUser(t, { name: "Ann Host" }),
    await createUser(t, { name: "Bob Host" }),
    await createUser(t, { name: "Cat Host" }),
    await createUser(t, { name: "Dan Host" }),
  ];
  const mic = await createSceneItem(t, { title: "Busy Mic", hostName: "Old Host" });
  const quiet = await createSceneItem(t, { title: "Quiet Mic" });
  const claims = {
    ann: await ann.asUser.mutation(api.claims.submit, { micId: mic }),
    bob: await bob.asUser.mutation(api.claims.submit, { micId: mic }),
    cat: await cat.asUser.mutation(api.claims.submit, { micId: mic }),
    dan: await dan.asUser.mutation(api.claims.submit, { micId: quiet }),
  };
  const pending = async () =>
    (await admin.asUser.query(api.claims.list, { queue: "pending", ...FIRST_PAGE })).page.map((c) => [
      c.claimantName,
      c.micTitle,
      c.pendingForMic,
      c.micHostName,
    ]);
  return { t, admin, ann, bob, cat, dan, mic, quiet, claims, pending };
}

describe("claims on one mic", () => {
  test("the queue says how many claims wait on each mic and, once one is approved, who hosts it", async () => {
    const { admin, mic, claims, pending, t } = await threeClaims();
    expect(await pending()).toEqual([
      ["Dan Host", "Quiet Mic", 1, null],
      ["Cat Host", "Busy Mic", 3, null],
      ["Bob Host", "Busy Mic", 3, null],
      ["Ann Host", "Busy Mic", 3, null],
    ]);
    await admin.asUser.mutation(api.claims.review, { id: claims.bob, status: "approved" });
    expect(await pending()).toEqual([
      ["Dan Host", "Quiet Mic", 1, null],
      ["Cat Host", "Busy Mic", 2, "Bob Host"],
      ["Ann Host", "Busy Mic", 2, "Bob Host"],
    ]);
    // The mic's listed host follows the approved claim.
    expect((await getItem(t, mic))!.hostName).toBe("Bob Host");
    // The others cannot be approved while Bob hosts it.
    await expectAppError(
      admin.asUser.mutation(api.claims.review, { id: claims.ann, status: "approved" }),
      "INVALID_INPUT",
      "This mic already has an approved host. Revoke that claim first.",
    );
  });

  test("approve and deny take an optional reason the claimant sees; the moot claims are denied in one action", async () => {
    const { admin, ann, bob, cat, dan, mic, quiet, claims, pending } = await threeClaims();
    await admin.asUser.mutation(api.claims.review, {
      id: claims.bob,
      status: "approved",
      reason: "  You run the Tuesday list.  ",
    });
    expect((await bob.asUser.query(api.claims.mine, { micId: mic }))[0]).toMatchObject({
      status: "approved",
      reviewReason: "You run the Tuesday list.",
    });
    await admin.asUser.mutation(api.claims.review, { id: claims.dan, status: "denied" });
    expect((await dan.asUser.query(api.claims.mine, { micId: quiet }))[0].reviewReason).toBeUndefined();

    const reason = "Another comedian was approved as this mic's host.";
    expect(await admin.asUser.mutation(api.claims.denyMoot, { micId: mic, reason })).toBe(2);
    for (const c of [ann, cat]) {
      expect((await c.asUser.query(api.claims.mine, { micId: mic }))[0]).toMatchObject({
        status: "denied",
        reviewReason: reason,
      });
    }
    expect(await pending()).toEqual([]);
    // The approved claim stays approved.
    expect((await bob.asUser.query(api.claims.mine, { micId: mic }))[0].status).toBe("approved");
  });

  test("refused: a reason over 500 characters, moot claims on a mic with no host, anyone but an admin", async () => {
    const { t, admin, ann, mic, claims } = await threeClaims();
    const before = await t.run(async (ctx) => await ctx.db.query("micClaims").collect());
    await expectAppError(
      admin.asUser.mutation(api.claims.review, { id: claims.ann, status: "denied", reason: "x".repeat(501) }),
      "INVALID_INPUT",
      "Reason must be 500 characters or fewer",
    );
    await expectAppError(
      admin.asUser.mutation(api.claims.denyMoot, { micId: mic }),
      "INVALID_INPUT",
      "This mic has no approved host yet, so its other claims still count.",
    );
    await expectAppError(ann.asUser.mutation(api.claims.denyMoot, { micId: mic }), "FORBIDDEN");
    await expectAppError(t.mutation(api.claims.denyMoot, { micId: mic }), "NOT_SIGNED_IN");
    expect(await t.run(async (ctx) => await ctx.db.query("micClaims").collect())).toEqual(before);
  });

  test("revoking takes the comedian off the listed host; a host name set by hand stays", async () => {
    const { t, admin, bob, mic, claims } = await threeClaims();
    await admin.asUser.mutation(api.claims.review, { id: claims.ann, status: "approved" });
    expect((await getItem(t, mic))!.hostName).toBe("Ann Host");
    await admin.asUser.mutation(api.claims.revoke, { id: claims.ann });
    expect((await getItem(t, mic))!.hostName).toBeUndefined();

    await admin.asUser.mutation(api.claims.review, { id: claims.bob, status: "approved" });
    expect((await getItem(t, mic))!.hostName).toBe("Bob Host");
    const item = (await getItem(t, mic))!;
    await bob.asUser.mutation(api.claims.updateOwnMic, {
      micId: mic,
      title: item.title,
      dayOfWeek: item.dayOfWeek ?? null,
      startTimeLocal: item.startTimeLocal ?? "20:00",
      hostName: "Bob and Friends",
    });
    await admin.asUser.mutation(api.claims.revoke, { id: claims.bob });
    expect((await getItem(t, mic))!.hostName).toBe("Bob and Friends");
  });
});
