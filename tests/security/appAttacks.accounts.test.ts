/**
 * Issue 13's app-side items, each mounted as an attacker would: through the
 * real Convex clients (ConvexHttpClient over the HTTP API, Convex Auth's
 * password and Google flows) against one running local backend that serves
 * the app's own convex/ folder. Every test asserts the refusal itself (code
 * and message), so accepting the hostile call fails it.
 *
 * This file, accounts and sign-in:
 * - item 2: admin by sign-up (a listed email typed into the password form;
 *   `admin:setAdmin` on an email two accounts share)
 * - item 6: a deleted account's still-valid JWT and refresh token
 * - item 8: unbounded strings at the sign-up and mic entry points
 * - item 10: the lockout policy (10 wrong passwords cost the owner 2 minutes, not an hour)
 *
 * Mics, check-ins and claims are in appAttacks.mics.test.ts; the other items
 * have their own files (see tests/security/README.md).
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { expectAppError } from "@convex/testing/test.expect";
import { FIRST_PAGE } from "@convex/testing/test.adminQueues";
import {
  type Comedian,
  type Tokens,
  backend,
  BOSS_EMAIL,
  UNVERIFIED_BOSS_EMAIL,
  PASSWORD,
  VENUE,
  signUp,
  passwordSignIn,
  googleSignIn,
  cliRun,
  exportTables,
  exportRows,
  useAppBackend,
} from "./support/app";

useAppBackend();

describe("item 2: admin comes only from a proven email or the CLI, and names one account", () => {
  let impostor: Comedian;

  test("signing up with a listed email through the password form makes no admin", async () => {
    impostor = await signUp("Boss@StageTime.test");
    expect(await impostor.http.query(api.profiles.isAdmin, {})).toBe(false);
    expect((await impostor.http.query(api.profiles.me, {}))?.isAdmin).toBe(false);
    await expectAppError(
      impostor.http.query(api.claims.list, { queue: "pending", ...FIRST_PAGE }),
      "FORBIDDEN",
      "Admins only.",
    );
  });

  test("a Google sign-in makes an admin only when Google verified the listed email", async () => {
    const unverified = await googleSignIn({ email: UNVERIFIED_BOSS_EMAIL, name: "Deputy", emailVerified: false });
    expect(await unverified.http.query(api.profiles.isAdmin, {})).toBe(false);
    await expectAppError(unverified.http.query(api.reports.list, FIRST_PAGE), "FORBIDDEN");

    const boss = await googleSignIn({ email: BOSS_EMAIL, name: "The Boss" });
    expect(boss.userId).not.toBe(impostor.userId);
    expect(await boss.http.query(api.profiles.isAdmin, {})).toBe(true);
    expect((await boss.http.query(api.claims.list, { queue: "pending", ...FIRST_PAGE })).page).toEqual(
      expect.any(Array),
    );
    // The impostor's account with the same address is still nobody.
    expect(await impostor.http.query(api.profiles.isAdmin, {})).toBe(false);
  }, 120_000);

  test("admin:setAdmin on an email two accounts share refuses and names both; a user id promotes one", async () => {
    const shared = await cliRun("admin:setAdmin", { email: BOSS_EMAIL, isAdmin: true });
    expect(shared.code).not.toBe(0);
    expect(shared.stdout + shared.stderr).toContain(`2 accounts use the email ${BOSS_EMAIL}`);
    expect(shared.stdout + shared.stderr).toContain(impostor.userId);
    expect(await impostor.http.query(api.profiles.isAdmin, {})).toBe(false);

    // Naming the impostor's id with the other account's email is refused too.
    const mismatch = await cliRun("admin:setAdmin", {
      email: "someone@else.test",
      userId: impostor.userId,
      isAdmin: true,
    });
    expect(mismatch.code).not.toBe(0);
    expect(await impostor.http.query(api.profiles.isAdmin, {})).toBe(false);

    // The operator names exactly one account by id: that one, and only that one, changes.
    const deputy = await signUp("deputy-by-cli@stagetime.test");
    const promoted = await cliRun("admin:setAdmin", { userId: deputy.userId, isAdmin: true });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(await deputy.http.query(api.profiles.isAdmin, {})).toBe(true);
    expect(await impostor.http.query(api.profiles.isAdmin, {})).toBe(false);
  }, 120_000);
});

describe("item 6: a deleted account's tokens can do nothing", () => {
  test("after Delete Account the same JWT cannot log sets, add mics or recreate a profile; its refresh token is dead", async () => {
    const gone = await signUp("gone@example.com");
    await gone.http.mutation(api.profiles.ensure, {});
    expect(await gone.http.mutation(api.account.deleteAccount, { confirm: "DELETE" })).toEqual({ done: true });

    const accountGone = "Account not found. Please sign in again.";
    await expectAppError(
      gone.http.mutation(api.performances.log, {
        minutes: 5,
        performedAt: Date.now() - 60_000,
        venueName: "Ghost Room",
        tags: [],
      }),
      "NOT_SIGNED_IN",
      accountGone,
    );
    await expectAppError(
      gone.http.mutation(api.events.create, {
        venue: { venueName: "Ghost Hall", ...VENUE },
        details: {
          type: "open_mic",
          title: "Ghost Mic",
          dayOfWeek: 2,
          startTimeLocal: "20:00",
          recurrence: "weekly",
        },
      }),
      "NOT_SIGNED_IN",
      accountGone,
    );
    await expectAppError(gone.http.mutation(api.profiles.ensure, {}), "NOT_SIGNED_IN", accountGone);
    expect(await gone.http.query(api.profiles.me, {})).toBeNull();

    // Nothing of the account came back.
    const tables = await exportTables();
    expect((tables.users ?? []).filter((u) => u._id === gone.userId || u.email === gone.email)).toEqual([]);
    for (const table of ["profiles", "performances", "sceneItems", "authSessions", "authRefreshTokens"]) {
      const left = (tables[table] ?? []).filter((row) => row.userId === gone.userId || row.createdBy === gone.userId);
      expect(left, `${table} rows of the deleted account`).toEqual([]);
    }

    // Its sessions ended: the refresh token signs nobody in. The same call with a live account's
    // refresh token does sign in, so this is the token being refused, not the call failing.
    const refresh = async (refreshToken: string) =>
      ((await backend.httpClient().action(api.auth.signIn, { refreshToken })) as { tokens?: Tokens | null }).tokens ??
      null;
    const live = await signUp(`live-refresh-${Date.now()}@example.com`);
    expect(await refresh(live.refreshToken)).toMatchObject({ token: expect.any(String) });
    expect(await refresh(gone.refreshToken)).toBeNull();
  });
});

describe("item 8: every string is capped where it enters", () => {
  const ONE_MB = "x".repeat(1024 * 1024);

  test("sign-up refuses a 500,000-character name, a 1 MB password and a 1 MB email, and creates no account", async () => {
    const signUpWith = (params: Record<string, string>) =>
      backend.httpClient().action(api.auth.signIn, { provider: "password", params: { flow: "signUp", ...params } });
    await expectAppError(
      signUpWith({ email: "long-name@example.com", password: PASSWORD, name: "n".repeat(500_000) }),
      "INVALID_INPUT",
      "Display name must be 60 characters or fewer.",
    );
    await expectAppError(
      signUpWith({ email: "long-password@example.com", password: ONE_MB }),
      "INVALID_INPUT",
      "Password must be 256 characters or fewer",
    );
    await expectAppError(
      signUpWith({ email: `${ONE_MB}@example.com`, password: PASSWORD }),
      "INVALID_INPUT",
      "Email must be 254 characters or fewer",
    );
    // A 1 MB password on sign-in is refused before any hashing as well.
    await expectAppError(
      passwordSignIn("long-password@example.com", ONE_MB),
      "INVALID_INPUT",
      "Password must be 256 characters or fewer",
    );
    const users = await exportRows("users");
    expect(
      users.filter((u) => ["long-name@example.com", "long-password@example.com"].includes(u.email as string)),
    ).toEqual([]);
    // At the cap a name is fine.
    const result = (await signUpWith({
      email: "sixty@example.com",
      password: PASSWORD,
      name: "n".repeat(60),
    })) as { tokens?: Tokens | null };
    expect(result.tokens).toBeTruthy();
  });

  test("a creator's and a claimant's sign-up and show links are capped at 2000 characters", async () => {
    const creator = await signUp("links@example.com");
    const huge = `https://example.com/${"a".repeat(900 * 1024)}`;
    const micArgs = (extra: Record<string, string>) => ({
      venue: { venueName: "Link Hall", ...VENUE },
      details: {
        type: "open_mic" as const,
        title: "Link Mic",
        dayOfWeek: 3,
        startTimeLocal: "20:00",
        recurrence: "weekly" as const,
        signupMethod: "online" as const,
        ...extra,
      },
    });
    await expectAppError(
      creator.http.mutation(api.events.create, micArgs({ signupLink: huge })),
      "INVALID_INPUT",
      "Signup link must be 2000 characters or fewer",
    );
    await expectAppError(
      creator.http.mutation(api.events.create, micArgs({ showLink: huge })),
      "INVALID_INPUT",
      "Show link must be 2000 characters or fewer",
    );
    const { sceneItemId } = await creator.http.mutation(
      api.events.create,
      micArgs({ signupLink: "https://example.com/list" }),
    );
    const edit = { micId: sceneItemId, title: "Link Mic", dayOfWeek: 3, startTimeLocal: "20:00" };
    await expectAppError(
      creator.http.mutation(api.claims.updateOwnMic, { ...edit, signupLink: huge }),
      "INVALID_INPUT",
      "Sign-up link must be 2000 characters or fewer",
    );
    await expectAppError(
      creator.http.mutation(api.claims.updateOwnMic, { ...edit, showLink: huge }),
      "INVALID_INPUT",
      "Show link must be 2000 characters or fewer",
    );
    // The anonymous scene page of the mic stays small.
    const mic = await backend.httpClient().query(api.scene.get, { id: sceneItemId });
    expect(mic?.signupLink).toBe("https://example.com/list");
    expect(JSON.stringify(mic).length).toBeLessThan(10_000);
  });
});

describe("item 10: the lockout policy cannot keep an owner out for long", () => {
  test("10 wrong passwords make the account wait at most 2 minutes; other accounts are untouched", async () => {
    const victim = await signUp("locked@example.com");
    const neighbour = await signUp("neighbour@example.com");
    for (let i = 0; i < 10; i++) {
      await expectAppError(passwordSignIn(victim.email, `guess-${i}`), "INVALID_INPUT", "Invalid email or password.");
    }
    const limited = await expectAppError(
      passwordSignIn(victim.email, PASSWORD),
      "RATE_LIMITED",
      "Too many failed attempts. Please try again later.",
    );
    expect(limited).toMatchObject({ limit: "signInAccount" });
    // One attempt comes back every 2 minutes (not after an hour, as Convex Auth's default would).
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(2 * 60 * 1000);
    // Another account signs in at once.
    expect((await passwordSignIn(neighbour.email, PASSWORD)).tokens).toBeTruthy();
  }, 120_000);
});
