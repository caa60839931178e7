/**
 * Issue 13's app-side items, each mounted as an attacker would: through the
 * real Convex clients (ConvexHttpClient over the HTTP API, Convex Auth's
 * password and Google flows) against one running local backend that serves
 * the app's own convex/ folder. Every test asserts the refusal itself (code
 * and message), so accepting the hostile call fails it.
 *
 * This file, mics, check-ins and claims:
 * - item 3: non-finite and out-of-range coordinates
 * - item 12: fresh accounts and the mic's creator do not verify it
 * - item 15: problem reports and claims are rate limited per comedian
 * - item 16: an admin revokes an approved claim
 *
 * Accounts and sign-in are in appAttacks.accounts.test.ts; the other items
 * have their own files (see tests/security/README.md).
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { expectAppError } from "@convex/testing/test.expect";
import { INVALID_COORDINATES_MESSAGE } from "@convex/lib/geo";
import { waitFor } from "../local-backend/harness";
import { type Comedian, backend, VENUE, signUp, cliRun, exportRows, createOpenMic, useAppBackend } from "./support/app";

useAppBackend();

describe("item 3: coordinates must be finite and in range", () => {
  test("a check-in with NaN, Infinity or out-of-range coordinates is refused and records nothing", async () => {
    const comic = await signUp("coords@example.com");
    const host = await signUp("coords-host@example.com");
    const micId = await createOpenMic(host, "Coordinates Mic");
    for (const [latitude, longitude] of [
      [Infinity, VENUE.longitude],
      [-Infinity, VENUE.longitude],
      [NaN, VENUE.longitude],
      [VENUE.latitude, NaN],
      [VENUE.latitude, Infinity],
      [90.0001, VENUE.longitude],
      [VENUE.latitude, -180.5],
    ]) {
      await expectAppError(
        comic.http.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude, longitude }),
        "INVALID_INPUT",
        INVALID_COORDINATES_MESSAGE,
      );
    }
    // Finite but far away: the 200 m rule applies.
    await expectAppError(
      comic.http.mutation(api.checkIns.checkIn, { sceneItemId: micId, latitude: 0, longitude: 0 }),
      "CHECK_IN_TOO_FAR",
    );
    expect((await exportRows("checkIns")).filter((c) => c.sceneItemId === micId)).toEqual([]);
    // At the venue it works: the refusals above were about the coordinates.
    const ok = await comic.http.mutation(api.checkIns.checkIn, { sceneItemId: micId, ...VENUE });
    expect(ok.success).toBe(true);
  });

  test("a new mic and an area search refuse non-finite coordinates too", async () => {
    const comic = await signUp("coords-mic@example.com");
    await expectAppError(
      comic.http.mutation(api.events.create, {
        venue: { venueName: "Nowhere Hall", latitude: NaN, longitude: VENUE.longitude },
        details: { type: "open_mic", title: "NaN Mic", dayOfWeek: 1, startTimeLocal: "20:00", recurrence: "weekly" },
      }),
      "INVALID_INPUT",
      "Latitude must be between -90 and 90",
    );
    await expectAppError(
      backend.httpClient().query(api.sceneArea.listArea, {
        lat: Infinity,
        lng: VENUE.longitude,
        radiusMiles: 10,
        paginationOpts: { numItems: 10, cursor: null },
      }),
      "INVALID_INPUT",
      "Latitude must be between -90 and 90",
    );
  });
});

/** The mic once its row has taken in `count` check-ins (a fold, about once a second, does that). */
async function foldedMic(micId: Id<"sceneItems">, count: number) {
  return await waitFor(
    async () => {
      const mic = await backend.httpClient().query(api.scene.get, { id: micId });
      return mic !== null && mic.checkInCount >= count ? mic : null;
    },
    { timeoutMs: 30_000, intervalMs: 250, message: `the mic's row counting ${count} check-ins` },
  );
}

describe("item 12: a mic is verified only by others' check-ins from accounts a day old", () => {
  test("two fresh accounts (and the creator) do not verify the mic they just added", async () => {
    const creator = await signUp("verify-creator@example.com");
    const friends = [await signUp("verify-friend-1@example.com"), await signUp("verify-friend-2@example.com")];
    const micId = await createOpenMic(creator, "Fresh Accounts Mic");
    for (const who of [creator, ...friends]) {
      const result = await who.http.mutation(api.checkIns.checkIn, { sceneItemId: micId, ...VENUE });
      expect(result.verified, `${who.email}'s check-in`).toBe(false);
    }
    const mic = await foldedMic(micId, 3);
    expect(mic?.checkInCount).toBe(3);
    expect(mic?.verifiedCheckIns30d).toBe(0);
    expect(mic?.lastVerifiedAt).toBeUndefined();

    // With the age rule off (as the browser tests run), the creator still does not count:
    // creator + one other is not two comedians; a second other verifies it.
    const set = await backend.cli(["env", "set", "VERIFIER_MIN_ACCOUNT_AGE_HOURS", "0"]);
    expect(set.code, set.stderr).toBe(0);
    try {
      const second = await createOpenMic(creator, "Creator's Own Mic");
      expect((await creator.http.mutation(api.checkIns.checkIn, { sceneItemId: second, ...VENUE })).verified).toBe(
        false,
      );
      expect((await friends[0].http.mutation(api.checkIns.checkIn, { sceneItemId: second, ...VENUE })).verified).toBe(
        false,
      );
      expect((await friends[1].http.mutation(api.checkIns.checkIn, { sceneItemId: second, ...VENUE })).success).toBe(
        true,
      );
      // The second other comedian's check-in verifies it once the mic row takes the check-ins in.
      const verified = await foldedMic(second, 3);
      expect(verified?.verifiedCheckIns30d).toBe(2);
      expect(verified?.lastVerifiedAt).toBeDefined();
    } finally {
      await backend.cli(["env", "remove", "VERIFIER_MIN_ACCOUNT_AGE_HOURS"]);
    }
  }, 120_000);
});

describe("item 15: problem reports and claims are limited per comedian", () => {
  test("the 11th report in an hour and the 6th claim in a day are refused with a clear message", async () => {
    const flooder = await signUp("report-flood@example.com");
    const host = await signUp("report-host@example.com");
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 6; i++) mics.push(await createOpenMic(host, `Flooded Mic ${i}`));

    // Each a different problem (mic and kind): a repeat of an open one is refused as a duplicate first.
    const kinds = ["other", "wrong_time"] as const;
    const report = (who: Comedian, i: number) =>
      who.http.mutation(api.reports.submit, { micId: mics[i % 6], kind: kinds[Math.floor(i / 6)], note: `spam ${i}` });
    for (let i = 0; i < 10; i++) await report(flooder, i);
    const refusedReport = await expectAppError(
      report(flooder, 10),
      "RATE_LIMITED",
      /^Too many reports\. Please try again in (a minute|\d+ minutes)\.$/,
    );
    expect(refusedReport).toMatchObject({ limit: "problemReport" });
    // Per comedian: someone else still reports.
    await report(host, 0);
    const reports = (await exportRows("problemReports")).filter((r) => r.reporterId === flooder.userId);
    expect(reports).toHaveLength(10);

    for (let i = 0; i < 5; i++) await flooder.http.mutation(api.claims.submit, { micId: mics[i] });
    const refusedClaim = await expectAppError(
      flooder.http.mutation(api.claims.submit, { micId: mics[5] }),
      "RATE_LIMITED",
      /^Too many claims\. Please try again in (\d+ minutes|an hour|\d+ hours)\.$/,
    );
    expect(refusedClaim).toMatchObject({ limit: "micClaim" });
    expect(await flooder.http.query(api.claims.mine, { micId: mics[5] })).toEqual([]);
  }, 120_000);
});

describe("item 16: an admin can revoke an approved claim", () => {
  test("revoked, the claimant loses the host tools; nobody else can revoke", async () => {
    const admin = await signUp("revoking-admin@stagetime.test");
    const made = await cliRun("admin:setAdmin", { userId: admin.userId, isAdmin: true });
    expect(made.code, made.stderr).toBe(0);
    const creator = await signUp("revoke-creator@example.com");
    const claimant = await signUp("revoke-claimant@example.com");
    const micId = await createOpenMic(creator, "Revocable Mic");
    const claimId = await claimant.http.mutation(api.claims.submit, { micId, message: "I run it now" });
    await admin.http.mutation(api.claims.review, { id: claimId, status: "approved" });
    const edit = { micId, title: "Revocable Mic, by its host", dayOfWeek: 2, startTimeLocal: "21:00" };
    await claimant.http.mutation(api.claims.updateOwnMic, edit);

    // Neither the claimant nor the mic's creator may revoke it.
    for (const who of [claimant, creator]) {
      await expectAppError(who.http.mutation(api.claims.revoke, { id: claimId }), "FORBIDDEN", "Admins only.");
    }
    await admin.http.mutation(api.claims.revoke, { id: claimId });
    const [claim] = await claimant.http.query(api.claims.mine, { micId });
    expect(claim).toMatchObject({ status: "revoked", revokedBy: admin.userId });
    await expectAppError(
      claimant.http.mutation(api.claims.updateOwnMic, edit),
      "FORBIDDEN",
      "Only the mic's approved claimant can change it",
    );
    // Only an approved claim can be revoked.
    await expectAppError(
      admin.http.mutation(api.claims.revoke, { id: claimId }),
      "INVALID_INPUT",
      "Only an approved claim can be revoked",
    );
  }, 120_000);
});
