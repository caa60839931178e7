import { createAccount } from "@convex-dev/auth/server";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { expectAppError } from "./testing/test.expect";
import { createUser, newTest, type TestBackend } from "./testing/test.setup";
import { SESSION_ENDED } from "./functions";
import { newSigningKey, stubAuthEnv as stubAuthServerEnv } from "./testing/test.auth";

// Password hashing (scrypt) and seeding are slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

// Convex Auth signs session JWTs with JWT_PRIVATE_KEY and names CONVEX_SITE_URL as issuer.
let privateKey = "";
beforeAll(async () => {
  privateKey = await newSigningKey();
});

function stubAuthEnv(adminEmails = "") {
  stubAuthServerEnv(privateKey);
  vi.stubEnv("ADMIN_EMAILS", adminEmails);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Runs the real `auth:signIn` action with the password provider. */
async function passwordSignIn(
  t: TestBackend,
  params: { email: string; password: string; flow: "signUp" | "signIn"; name?: string },
) {
  return await t.action(api.auth.signIn, { provider: "password", params });
}

/** A Convex Auth token's subject ("userId|sessionId"). */
function subjectOf(token: string): string {
  const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  return payload.sub as string;
}

/** The user id in a Convex Auth token's subject. */
function userIdOf(token: string): Id<"users"> {
  return subjectOf(token).split("|")[0] as Id<"users">;
}

describe("a token whose session ended (signed out)", () => {
  test("acts as nobody: user functions refuse it, public ones answer as to a visitor", async () => {
    const t = newTest();
    const comic = await createUser(t);
    expect(await comic.asUser.query(api.favorites.list, {})).toEqual([]);
    await t.run(async (ctx) => {
      await ctx.db.delete("authSessions", comic.sessionId);
    });
    await expectAppError(comic.asUser.query(api.favorites.list, {}), "NOT_SIGNED_IN", SESSION_ENDED);
    await expectAppError(
      comic.asUser.mutation(api.goals.update, { weeklyGoalMinutes: 30 }),
      "NOT_SIGNED_IN",
      SESSION_ENDED,
    );
    expect(await comic.asUser.query(api.profiles.me, {})).toBeNull();
    // A session of someone else does not stand in for the caller's own.
    const other = await createUser(t);
    const forged = t.withIdentity({ subject: `${comic.userId}|${other.sessionId}` });
    await expectAppError(forged.query(api.favorites.list, {}), "NOT_SIGNED_IN", SESSION_ENDED);
  });
});

describe("password sign-up", () => {
  test("creates the comedian's profile: name from the form, goal 15, needs onboarding", async () => {
    stubAuthEnv();
    const t = newTest();
    const result = await passwordSignIn(t, {
      email: "  New.Comic@Example.com ",
      password: "secret1",
      flow: "signUp",
      name: "Nia New",
    });
    const token = result.tokens?.token;
    expect(token).toBeTypeOf("string");
    const userId = userIdOf(token!);

    const me = await t.withIdentity({ subject: subjectOf(token!) }).query(api.profiles.me, {});
    expect(me).toMatchObject({
      userId,
      displayName: "Nia New",
      email: "new.comic@example.com",
      weeklyGoalMinutes: 15,
      needsOnboarding: true,
      onboardingCompleted: false,
      isAdmin: false,
      hasProfile: true,
    });
    expect(await t.query(api.community.stats, {})).toMatchObject({ comedians: 1 });
  });

  test("without a name, the display name is the neutral default, never the part of the email before @", async () => {
    stubAuthEnv();
    const t = newTest();
    const result = await passwordSignIn(t, {
      email: "riley@example.com",
      password: "secret1",
      flow: "signUp",
    });
    const userId = userIdOf(result.tokens!.token);
    const profile = await t.run(async (ctx) =>
      ctx.db
        .query("profiles")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .unique(),
    );
    expect(profile?.displayName).toBe("Comedian");
  });

  test("an email listed in ADMIN_EMAILS does not make a password sign-up an admin (nothing proved the email)", async () => {
    // Security issue 13 item 2: anyone could type the admin's address into the sign-up form.
    stubAuthEnv("someone@else.com, Boss@StageTime.app");
    const t = newTest();
    const result = await passwordSignIn(t, {
      email: "boss@stagetime.app",
      password: "secret1",
      flow: "signUp",
    });
    const userId = userIdOf(result.tokens!.token);
    const asBoss = t.withIdentity({ subject: subjectOf(result.tokens!.token) });
    expect(await asBoss.query(api.profiles.isAdmin, {})).toBe(false);
    const user = await t.run(async (ctx) => ctx.db.get("users", userId));
    expect(user?.emailVerificationTime).toBeUndefined();
  });

  test("rejects a password shorter than 6 characters with the spec's message", async () => {
    stubAuthEnv();
    const t = newTest();
    await expectAppError(
      passwordSignIn(t, { email: "short@example.com", password: "12345", flow: "signUp" }),
      "INVALID_INPUT",
      "Password must be at least 6 characters",
    );
    const users = await t.run(async (ctx) => ctx.db.query("users").take(5));
    expect(users).toHaveLength(0);
  });

  test("signing in again keeps the single profile as it is", async () => {
    stubAuthEnv();
    const t = newTest();
    const first = await passwordSignIn(t, {
      email: "again@example.com",
      password: "secret1",
      flow: "signUp",
    });
    const userId = userIdOf(first.tokens!.token);
    const asComic = t.withIdentity({ subject: subjectOf(first.tokens!.token) });
    await asComic.mutation(api.profiles.completeOnboarding, { weeklyGoalMinutes: 40 });

    const second = await passwordSignIn(t, {
      email: "AGAIN@example.com",
      password: "secret1",
      flow: "signIn",
    });
    expect(userIdOf(second.tokens!.token)).toBe(userId);
    const profiles = await t.run(async (ctx) =>
      ctx.db
        .query("profiles")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .collect(),
    );
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ weeklyGoalMinutes: 40, needsOnboarding: false });
    expect(await t.query(api.community.stats, {})).toMatchObject({ comedians: 1 });
  });

  test("a wrong password does not sign in", async () => {
    stubAuthEnv();
    const t = newTest();
    await passwordSignIn(t, { email: "pw@example.com", password: "secret1", flow: "signUp" });
    await expectAppError(
      passwordSignIn(t, { email: "pw@example.com", password: "wrong-one", flow: "signIn" }),
      "INVALID_INPUT",
      "Invalid email or password.",
    );
    await expectAppError(
      passwordSignIn(t, { email: "nobody@example.com", password: "secret1", flow: "signIn" }),
      "INVALID_INPUT",
      "Invalid email or password.",
    );
  });

  test("signing up twice with the same email fails", async () => {
    stubAuthEnv();
    const t = newTest();
    await passwordSignIn(t, { email: "dup@example.com", password: "secret1", flow: "signUp" });
    await expectAppError(
      passwordSignIn(t, { email: "Dup@example.com", password: "other12", flow: "signUp" }),
      "ALREADY_EXISTS",
      "This email is already registered. Try signing in instead.",
      { exact: true },
    );
  });
});

describe("passwords are hashed in the sign-in action, auth:store only stores or compares (issue 18 item 2)", () => {
  async function storedSecret(t: TestBackend, email: string): Promise<string | undefined> {
    const account = await t.run(async (ctx) =>
      ctx.db
        .query("authAccounts")
        .withIndex("providerAndAccountId", (q) => q.eq("provider", "password").eq("providerAccountId", email))
        .unique(),
    );
    return account?.secret;
  }

  test("the stored secret is Scrypt's salt:key; signing up again with the right password signs in, else refused", async () => {
    stubAuthEnv();
    const t = newTest();
    const first = await passwordSignIn(t, { email: "hash@example.com", password: "secret1", flow: "signUp" });
    expect(await storedSecret(t, "hash@example.com")).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const again = await passwordSignIn(t, { email: "hash@example.com", password: "secret1", flow: "signUp" });
    expect(userIdOf(again.tokens!.token)).toBe(userIdOf(first.tokens!.token));
    await expectAppError(
      passwordSignIn(t, { email: "hash@example.com", password: "other12", flow: "signUp" }),
      "ALREADY_EXISTS",
    );
  });

  test("an account hashed in the mutation (the seed's createAccount) signs in with its password only", async () => {
    stubAuthEnv();
    const t = newTest();
    await t.action(async (ctx) => {
      await createAccount(ctx, {
        provider: "password",
        account: { id: "seeded@example.com", secret: "seeded-pw" },
        profile: { email: "seeded@example.com" },
      });
    });
    expect(await storedSecret(t, "seeded@example.com")).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const ok = await passwordSignIn(t, { email: "seeded@example.com", password: "seeded-pw", flow: "signIn" });
    expect(ok.tokens?.token).toBeTruthy();
    await expectAppError(
      passwordSignIn(t, { email: "seeded@example.com", password: "seeded-px", flow: "signIn" }),
      "INVALID_INPUT",
      "Invalid email or password.",
    );
  });

  test("auth:store takes the action's checked secret and only compares it (no hashing in the mutation)", async () => {
    stubAuthEnv();
    const t = newTest();
    await passwordSignIn(t, { email: "store@example.com", password: "secret1", flow: "signUp" });
    const stored = (await storedSecret(t, "store@example.com"))!;
    const retrieve = (secret: string) =>
      t.mutation(internal.auth.store, {
        args: {
          type: "retrieveAccountWithCredentials",
          provider: "password",
          account: { id: "store@example.com", secret },
        },
      });
    // The stored hash itself, marked as checked: a comparison, equal.
    expect(await retrieve(`\u0000checked:${stored}`)).toMatchObject({ account: { secret: stored } });
    // Anything else marked as checked: not equal.
    expect(await retrieve(`\u0000checked:${stored.replace(/.$/, (c) => (c === "0" ? "1" : "0"))}`)).toBe(
      "InvalidSecret",
    );
  });

  test("a typed password shaped like an already-checked secret is hashed like any other: it does not sign in", async () => {
    stubAuthEnv();
    const t = newTest();
    await passwordSignIn(t, { email: "victim@example.com", password: "secret1", flow: "signUp" });
    const stored = (await storedSecret(t, "victim@example.com"))!;
    await expectAppError(
      passwordSignIn(t, { email: "victim@example.com", password: `\u0000checked:${stored}`, flow: "signIn" }),
      "INVALID_INPUT",
      "Invalid email or password.",
    );
  });
});

describe("credential limits (security issue 13 item 8)", () => {
  test("a 500,000-character sign-up name is refused like the profile's 60, and no account is made", async () => {
    stubAuthEnv();
    const t = newTest();
    await expectAppError(
      passwordSignIn(t, { email: "long@example.com", password: "secret1", flow: "signUp", name: "n".repeat(500_000) }),
      "INVALID_INPUT",
      "Display name must be 60 characters or fewer.",
    );
    expect(await t.run(async (ctx) => ctx.db.query("users").take(1))).toHaveLength(0);
    // 60 characters is fine.
    await passwordSignIn(t, { email: "long@example.com", password: "secret1", flow: "signUp", name: "n".repeat(60) });
  });

  test("a 5 MB password is refused before hashing, on sign-up and on sign-in", async () => {
    stubAuthEnv();
    const t = newTest();
    const huge = "p".repeat(5 * 1024 * 1024);
    for (const flow of ["signUp", "signIn"] as const) {
      const started = Date.now();
      await expectAppError(
        passwordSignIn(t, { email: "big@example.com", password: huge, flow }),
        "INVALID_INPUT",
        "Password must be 256 characters or fewer",
      );
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expect(await t.run(async (ctx) => ctx.db.query("users").take(1))).toHaveLength(0);
  });

  test("an email past 254 characters is refused", async () => {
    stubAuthEnv();
    const t = newTest();
    await expectAppError(
      passwordSignIn(t, { email: `${"e".repeat(250)}@example.com`, password: "secret1", flow: "signUp" }),
      "INVALID_INPUT",
      "Email must be 254 characters or fewer",
    );
  });
});
