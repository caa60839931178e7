/**
 * Signing out revokes the access token, attacked as someone holding a copied
 * JWT would: through the real clients against a running local backend serving
 * the app's convex/ folder. The token stays cryptographically valid for its
 * whole lifetime, so only the session it names can end it: after
 * `auth:signOut` every query, mutation and action refuses it, and a live
 * subscription opened with it stops answering without a reconnect.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { SESSION_ENDED } from "@convex/functions";
import { expectAppError } from "@convex/testing/test.expect";
import { backend, createOpenMic, exportRows, PASSWORD, signUp, useAppBackend } from "./support/app";

useAppBackend();

/** The values and errors a subscription delivers, and a wait for the next one that passes a check. */
function watch<T>(subscribe: (onValue: (value: T) => void, onError: (error: Error) => void) => () => void) {
  const seen: Array<{ value?: T; error?: Error }> = [];
  const waiters: Array<{ check: (e: { value?: T; error?: Error }) => boolean; resolve: () => void }> = [];
  const push = (event: { value?: T; error?: Error }) => {
    seen.push(event);
    for (const w of waiters.splice(0)) {
      if (w.check(event)) w.resolve();
      else waiters.push(w);
    }
  };
  const stop = subscribe(
    (value) => push({ value }),
    (error) => push({ error }),
  );
  return {
    stop,
    until: (check: (e: { value?: T; error?: Error }) => boolean) =>
      new Promise<void>((resolve) => {
        if (seen.some(check)) resolve();
        else waiters.push({ check, resolve });
      }),
  };
}

describe("signing out revokes the access token", () => {
  test("after auth:signOut the same JWT neither reads nor writes, over HTTP or a WebSocket", async () => {
    const comic = await signUp("signout-comic@example.com");
    const micId = await createOpenMic(comic, "Sign-out Mic");
    await comic.http.mutation(api.favorites.add, { sceneItemId: micId });
    expect((await comic.http.query(api.favorites.list, {})).map((m) => m._id)).toEqual([micId]);

    // Another tab keeps live subscriptions open with the same token.
    const client = backend.client();
    client.setAuth(async () => comic.token);
    const favourites = watch<unknown[]>((onValue, onError) =>
      client.onUpdate(api.favorites.list, {}, onValue, onError),
    );
    const profile = watch<{ email: string | null } | null>((onValue, onError) =>
      client.onUpdate(api.profiles.me, {}, onValue, onError),
    );
    await favourites.until((e) => Array.isArray(e.value) && e.value.length === 1);
    await profile.until((e) => e.value?.email === comic.email);

    await comic.http.action(api.auth.signOut, {});

    // The copied token reads nothing and writes nothing, in a query, a mutation and an action.
    await expectAppError(comic.http.query(api.favorites.list, {}), "NOT_SIGNED_IN", SESSION_ENDED);
    await expectAppError(
      comic.http.mutation(api.favorites.remove, { sceneItemId: micId }),
      "NOT_SIGNED_IN",
      SESSION_ENDED,
    );
    await expectAppError(
      comic.http.mutation(api.performances.log, {
        minutes: 5,
        performedAt: Date.now(),
        sceneItemId: micId,
        tags: [],
      }),
      "NOT_SIGNED_IN",
      SESSION_ENDED,
    );
    await expectAppError(comic.http.action(api.geocode.fixCoordinates, {}), "NOT_SIGNED_IN", SESSION_ENDED);
    expect(await comic.http.query(api.profiles.me, {})).toBeNull();
    expect((await exportRows("favorites")).filter((f) => f.sceneItemId === micId)).toHaveLength(1);
    expect((await exportRows("performances")).filter((p) => p.userId === comic.userId)).toEqual([]);

    // The live subscriptions end by themselves: the private one with the error, the public one as signed out.
    await favourites.until(
      (e) => e.error instanceof ConvexError && (e.error.data as { message?: string }).message === SESSION_ENDED,
    );
    await profile.until((e) => e.value === null);
    favourites.stop();
    profile.stop();
  }, 120_000);

  test("signing out one session leaves the comedian's other sessions working", async () => {
    const phone = await signUp("signout-two@example.com");
    const laptop = await backend.httpClient().action(api.auth.signIn, {
      provider: "password",
      params: { email: "signout-two@example.com", password: PASSWORD, flow: "signIn" },
    });
    const laptopClient = backend.httpClient();
    laptopClient.setAuth((laptop as { tokens: { token: string } }).tokens.token);
    await phone.http.action(api.auth.signOut, {});
    await expectAppError(phone.http.query(api.favorites.list, {}), "NOT_SIGNED_IN", SESSION_ENDED);
    expect(await laptopClient.query(api.favorites.list, {})).toEqual([]);
  }, 120_000);
});
