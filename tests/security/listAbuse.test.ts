/**
 * Throwaway accounts against a live list, mounted as an attacker would:
 * accounts made through the real password sign-up, calls through the
 * ConvexHttpClient, against one running local backend serving the app's own
 * convex/ folder. Before, four fresh accounts filled a 3 + 1 lottery pool
 * and a real comedian got "list full", and the host could not take a pool
 * entry off before the draw.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { expectAppError } from "@convex/testing/test.expect";
import { NEW_ACCOUNT_MESSAGE } from "@convex/lib/nightListRules";
import { backend, type Comedian, cliRun, createOpenMic, signUp, useAppBackend } from "./support/app";

useAppBackend();

/** How old an account must be here: a few seconds stand for the day a deployment asks. */
const MIN_AGE_HOURS = 0.005;

beforeAll(async () => {
  const set = await backend.cli(["env", "set", "LIST_MIN_ACCOUNT_AGE_HOURS", String(MIN_AGE_HOURS)]);
  expect(set.code, set.stderr).toBe(0);
});

afterAll(async () => {
  await backend?.cli(["env", "remove", "LIST_MIN_ACCOUNT_AGE_HOURS"]);
});

/** Waits until every account is older than the minimum age (the only wait here: an age, not a timing). */
async function ageAccounts(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, MIN_AGE_HOURS * 3_600_000 + 500));
}

async function openLottery(host: Comedian, title: string) {
  const micId = await createOpenMic(host, title);
  const listId = await host.http.mutation(api.nightLists.open, {
    micId,
    date: new Date().toISOString().slice(0, 10),
    spots: 3,
    waitlistSpots: 1,
    lightMinutes: 1,
    mode: "lottery",
    drawAt: Date.now() + 3_600_000,
    signupOpensAt: Date.now() - 60_000,
  });
  return { micId, listId };
}

describe("a burst of throwaway accounts cannot keep a real comedian off a list", () => {
  test("fresh accounts are refused online sign-up; the real comedian gets into the 3 + 1 lottery and is drawn", async () => {
    const host = await signUp("list-abuse-host@example.com");
    await cliRun("admin:setAdmin", { email: host.email, isAdmin: true });
    const regular = await signUp("list-abuse-regular@example.com");
    await ageAccounts();
    const { micId, listId } = await openLottery(host, "Throwaway Mic");

    // The drop: a script makes six accounts, each signing up to the list as soon as it exists.
    const throwaways = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const throwaway = await signUp(`list-abuse-throwaway-${i}@example.com`);
        await expectAppError(
          throwaway.http.mutation(api.nightLists.signUp, { listId }),
          "FORBIDDEN",
          NEW_ACCOUNT_MESSAGE,
        );
        return throwaway;
      }),
    );
    expect(throwaways).toHaveLength(6);

    const { spotId } = await regular.http.mutation(api.nightLists.signUp, { listId });
    const { list } = await backend.httpClient().query(api.nightLists.current, { micId });
    expect(list!.pool.map((s) => s._id)).toEqual([spotId]);
    await host.http.mutation(api.nightLists.draw, { listId });
    const drawn = (await backend.httpClient().query(api.nightLists.current, { micId })).list!;
    expect(drawn.list.map((s) => s._id)).toEqual([spotId]);
  });

  test("accounts aged in advance do not fill the pool (it is not capped by the spots), and the host removes them", async () => {
    const host = await signUp("list-abuse-host-2@example.com");
    await cliRun("admin:setAdmin", { email: host.email, isAdmin: true });
    const aged = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(`list-abuse-aged-${i}@example.com`)));
    const regular = await signUp("list-abuse-regular-2@example.com");
    await ageAccounts();
    const { micId, listId } = await openLottery(host, "Aged Throwaway Mic");

    const spam = await Promise.all(aged.map((c) => c.http.mutation(api.nightLists.signUp, { listId })));
    // Six names already in a pool for 3 + 1: the real comedian still gets in.
    const { spotId } = await regular.http.mutation(api.nightLists.signUp, { listId });
    let list = (await backend.httpClient().query(api.nightLists.current, { micId })).list!;
    expect(list.pool).toHaveLength(7);

    // The host takes the spam off before the draw; they cannot sign up again tonight.
    for (const { spotId: spamId } of spam) {
      list = (await backend.httpClient().query(api.nightLists.current, { micId })).list!;
      await host.http.mutation(api.nightLists.remove, { listId, spotId: spamId, version: list.version });
    }
    await expectAppError(
      aged[0].http.mutation(api.nightLists.signUp, { listId }),
      "FORBIDDEN",
      "The host took your name off tonight's list.",
    );
    await host.http.mutation(api.nightLists.draw, { listId });
    list = (await backend.httpClient().query(api.nightLists.current, { micId })).list!;
    expect(list.list.map((s) => s._id)).toEqual([spotId]);
    expect(list.waitlist).toEqual([]);
  });
});
