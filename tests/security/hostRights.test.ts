/**
 * Who hosts a mic, attacked through the real clients against a running local
 * backend serving the app's convex/ folder: the comedian who added a mic tries
 * to override the host an admin approved (phishing sign-up link, confirming
 * and opening tonight's list first, deleting the mic with everyone's rows),
 * and a revoked host keeps a live list open on screen. Each refusal is
 * asserted with its code and message, so a creator or revoked host who gets
 * through fails the test.
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { expectAppError } from "@convex/testing/test.expect";
import { NOT_OWNER_MESSAGE } from "@convex/model/claims";
import { IN_USE_MESSAGE } from "@convex/model/scene";
import { NOT_HOST_MESSAGE } from "@convex/lib/nightListRules";
import { backend, cliRun, createOpenMic, exportRows, signUp, useAppBackend, type Comedian } from "./support/app";

useAppBackend();

/** Today's date in UTC, the zone createOpenMic's mics run in. */
const today = () => new Date().toISOString().slice(0, 10);

async function makeAdmin(email: string): Promise<Comedian> {
  const admin = await signUp(email);
  const made = await cliRun("admin:setAdmin", { userId: admin.userId, isAdmin: true });
  expect(made.code, made.stderr).toBe(0);
  return admin;
}

/** `until` resolves with the first value the subscription delivers that passes `check`. */
function watch<T>(subscribe: (onValue: (value: T) => void) => () => void) {
  let latest: T | undefined;
  const waiters: Array<{ check: (value: T) => boolean; resolve: (value: T) => void }> = [];
  const stop = subscribe((value) => {
    latest = value;
    for (const w of waiters.splice(0)) {
      if (w.check(value)) w.resolve(value);
      else waiters.push(w);
    }
  });
  return {
    stop,
    until: (check: (value: T) => boolean) =>
      new Promise<T>((resolve) => {
        if (latest !== undefined && check(latest)) resolve(latest);
        else waiters.push({ check, resolve });
      }),
  };
}

describe("a mic's creator cannot override its approved host", () => {
  test("after an admin approves another comedian's claim, the creator can no longer edit, confirm, open the list or delete", async () => {
    const admin = await makeAdmin("hosts-admin@example.com");
    const creator = await signUp("hosts-creator@example.com");
    const host = await signUp("hosts-host@example.com");
    const fan = await signUp("hosts-fan@example.com");
    const micId = await createOpenMic(creator, "Contested Mic");
    const claimId = await host.http.mutation(api.claims.submit, { micId, message: "I run it" });
    await admin.http.mutation(api.claims.review, { id: claimId, status: "approved" });
    await fan.http.mutation(api.favorites.add, { sceneItemId: micId });

    // The attack: a phishing sign-up link and a fake host name, "Host confirmed", tonight's list opened first, delete.
    await expectAppError(
      creator.http.mutation(api.claims.updateOwnMic, {
        micId,
        title: "Contested Mic",
        dayOfWeek: new Date().getUTCDay(),
        startTimeLocal: "20:00",
        signupLink: "https://phish.example/signup",
        hostName: "Not The Host",
      }),
      "FORBIDDEN",
      NOT_OWNER_MESSAGE,
    );
    await expectAppError(
      creator.http.mutation(api.claims.setConfirmedDate, { micId, date: today(), confirmed: true }),
      "FORBIDDEN",
      NOT_OWNER_MESSAGE,
    );
    await expectAppError(
      creator.http.mutation(api.nightLists.open, {
        micId,
        date: today(),
        spots: 5,
        lightMinutes: 1,
        mode: "first_come",
      }),
      "FORBIDDEN",
      NOT_HOST_MESSAGE,
    );
    await expectAppError(creator.http.mutation(api.scene.remove, { id: micId }), "FORBIDDEN", IN_USE_MESSAGE);

    // Nothing of it took: the host opens tonight's list, and every row is still there.
    const mic = await backend.httpClient().query(api.scene.get, { id: micId });
    expect(mic).toMatchObject({ title: "Contested Mic" });
    expect(mic?.signupLink).toBeUndefined();
    expect(mic?.confirmedDates ?? []).toEqual([]);
    await host.http.mutation(api.nightLists.open, {
      micId,
      date: today(),
      spots: 5,
      lightMinutes: 1,
      mode: "first_come",
    });
    expect((await exportRows("micClaims")).filter((c) => c.micId === micId)).toHaveLength(1);
    expect((await exportRows("favorites")).filter((f) => f.sceneItemId === micId)).toHaveLength(1);

    // An admin has the owner's tools, links included, and may delete.
    await admin.http.mutation(api.claims.setCancelledDate, { micId, date: "2099-01-01", cancelled: true });
    await admin.http.mutation(api.admin.updateMic, {
      id: micId,
      title: "Contested Mic",
      venueName: mic!.venueName,
      city: mic!.city,
      type: "open_mic",
      dayOfWeek: mic!.dayOfWeek ?? null,
      startTimeLocal: mic!.startTimeLocal ?? "20:00",
      status: "active",
      signupLink: "https://example.com/real-list",
      hostName: "The Real Host",
    });
    expect(await backend.httpClient().query(api.scene.get, { id: micId })).toMatchObject({
      signupLink: "https://example.com/real-list",
      hostName: "The Real Host",
      cancelledDates: ["2099-01-01"],
    });
    await admin.http.mutation(api.scene.remove, { id: micId });
    expect(await backend.httpClient().query(api.scene.get, { id: micId })).toBeNull();
  }, 120_000);

  test("a revoked host loses the host controls of an open list at once, on a live subscription too", async () => {
    const admin = await makeAdmin("revoked-admin@example.com");
    const creator = await signUp("revoked-creator@example.com");
    const host = await signUp("revoked-host@example.com");
    const micId = await createOpenMic(creator, "Revoked Host Mic");
    const claimId = await host.http.mutation(api.claims.submit, { micId });
    await admin.http.mutation(api.claims.review, { id: claimId, status: "approved" });
    const listId = await host.http.mutation(api.nightLists.open, {
      micId,
      date: today(),
      spots: 5,
      lightMinutes: 1,
      mode: "first_come",
    });
    await host.http.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Wally" });

    // The host's screen: the list, with host controls.
    const client = backend.client();
    client.setAuth(async () => host.token);
    const screen = watch<{ canHost: boolean; listId: unknown }>((onValue) =>
      client.onUpdate(api.nightLists.viewer, { micId }, onValue),
    );
    await screen.until((v) => v.canHost && v.listId !== null);

    await admin.http.mutation(api.claims.revoke, { id: claimId });
    // The open screen drops its host controls without a reload, and every host call is refused.
    expect((await screen.until((v) => !v.canHost)).listId).not.toBeNull();
    await expectAppError(
      host.http.mutation(api.nightLists.addWalkIn, { listId, name: "Walk-in Wanda" }),
      "FORBIDDEN",
      NOT_HOST_MESSAGE,
    );
    await expectAppError(host.http.mutation(api.nightLists.close, { listId }), "FORBIDDEN", NOT_HOST_MESSAGE);
    await expectAppError(
      host.http.mutation(api.claims.setConfirmedDate, { micId, date: today(), confirmed: true }),
      "FORBIDDEN",
      NOT_OWNER_MESSAGE,
    );
    screen.stop();
  }, 120_000);
});
