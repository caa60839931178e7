/**
 * The app's rate limits (rateLimits.ts, kept by the @convex-dev/rate-limiter
 * component): for each, the call after the allowance is refused with its
 * message and writes nothing; other comedians are not affected; the allowance
 * comes back with time.
 */
import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date.
import "./lib/time";
import type { EventDetails } from "./model/events";
import { readCommunityTotals } from "./model/stats";
import { expectAppError } from "./testing/test.expect";
import { CREEK_VENUE as VENUE, createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";
import { useAuthEnv } from "./testing/test.auth";
import { useFrozenClock } from "./testing/test.clock";
import { checkAllInvariants } from "./testing/test.invariants";
import { signUpConfig } from "./rateLimits";

const NOW = Date.parse("2026-11-20T15:00:00-05:00");
const HOUR = 60 * 60 * 1000;

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

useFrozenClock(NOW);
// Convex Auth signs session JWTs with JWT_PRIVATE_KEY.
useAuthEnv();

/** Every document of the app's tables (not the rate limiter's) and the community totals, to show a refusal wrote nothing. */
async function appDocuments(t: TestBackend): Promise<unknown[]> {
  return await t.run(async (ctx) => {
    const tables = [
      "sceneItems",
      "scheduleEntries",
      "problemReports",
      "micClaims",
      "cities",
      "userBadges",
      "users",
      "authAccounts",
    ] as const;
    const all: unknown[] = [await readCommunityTotals(ctx)];
    for (const table of tables) all.push(...(await ctx.db.query(table).collect()));
    return all;
  });
}

function mic(i: number): EventDetails {
  return {
    type: "open_mic",
    title: `Mic number ${i}`,
    dayOfWeek: i % 7,
    startTimeLocal: `${String(12 + Math.floor(i / 7)).padStart(2, "0")}:00`,
    recurrence: "weekly",
    signupMethod: "in_person",
    costInfo: { type: "free" },
  };
}

describe("rate limits", () => {
  test("creating mics: 10 at once per comedian, the 11th is refused with a message and writes nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    for (let i = 0; i < 10; i++) await comic.asUser.mutation(api.events.create, { venue: VENUE, details: mic(i) });
    const before = await appDocuments(t);
    const data = await expectAppError(
      comic.asUser.mutation(api.events.create, { venue: VENUE, details: mic(10) }),
      "RATE_LIMITED",
      /^You have added a lot of events today\. Please try again in \d+ (minutes|hours)\.$/,
    );
    expect(data).toMatchObject({ limit: "createMic" });
    expect(await appDocuments(t)).toEqual(before);
    // Another comedian is not limited; the comedian may add more later (20 a day).
    await other.asUser.mutation(api.events.create, { venue: VENUE, details: mic(10) });
    vi.setSystemTime(NOW + 2 * HOUR);
    await comic.asUser.mutation(api.events.create, { venue: VENUE, details: mic(11) });
    expect(await checkAllInvariants(t)).toEqual({ ok: true, problems: [] });
  });

  test("problem reports: 10 an hour per comedian, the 11th is refused and writes nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 12; i++) mics.push(await createSceneItem(t, { title: `Mic ${i}` }));
    for (let i = 0; i < 10; i++)
      await comic.asUser.mutation(api.reports.submit, { micId: mics[i], kind: "wrong_time" });
    const before = await appDocuments(t);
    const data = await expectAppError(
      comic.asUser.mutation(api.reports.submit, { micId: mics[10], kind: "wrong_time" }),
      "RATE_LIMITED",
      "Too many reports. Please try again in 6 minutes.",
    );
    expect(data).toMatchObject({ limit: "problemReport" });
    expect(await appDocuments(t)).toEqual(before);
    await other.asUser.mutation(api.reports.submit, { micId: mics[10], kind: "wrong_time" });
    vi.setSystemTime(NOW + 6 * 60 * 1000);
    await comic.asUser.mutation(api.reports.submit, { micId: mics[10], kind: "wrong_time" });
  });

  test("mic claims: 5 a day per comedian, the 6th is refused and writes nothing", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    const mics: Id<"sceneItems">[] = [];
    for (let i = 0; i < 6; i++) mics.push(await createSceneItem(t, { title: `Mic ${i}` }));
    for (let i = 0; i < 5; i++) await comic.asUser.mutation(api.claims.submit, { micId: mics[i] });
    const before = await appDocuments(t);
    const data = await expectAppError(
      comic.asUser.mutation(api.claims.submit, { micId: mics[5] }),
      "RATE_LIMITED",
      "Too many claims. Please try again in 5 hours.",
    );
    expect(data).toMatchObject({ limit: "micClaim" });
    expect(await appDocuments(t)).toEqual(before);
    await other.asUser.mutation(api.claims.submit, { micId: mics[5] });
  });

  test("sign-ups: 5 an hour per email address (sign up, delete, again), then refused before any account is made", async () => {
    const t = newTest();
    const signUp = (email: string, password = "long-enough") =>
      t.action(api.auth.signIn, { provider: "password", params: { email, password, flow: "signUp" } });
    // Sign-ups refused by the cheap checks (password too short) hash nothing and spend nothing.
    for (let i = 0; i < 10; i++) await expectAppError(signUp("flood@example.com", "short"), "INVALID_INPUT");
    // Each new account hashes: 5 of them an hour on one address.
    for (let i = 0; i < 5; i++) {
      const { tokens } = await signUp("flood@example.com");
      const subject = JSON.parse(atob(tokens!.token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sub;
      await t.withIdentity({ subject }).mutation(api.account.deleteAccount, { confirm: "DELETE" });
    }
    const before = await appDocuments(t);
    const data = await expectAppError(
      signUp("flood@example.com"),
      "RATE_LIMITED",
      "Too many sign-up attempts for this email. Please try again in 12 minutes.",
    );
    expect(data).toMatchObject({ limit: "signUpEmail" });
    expect(await appDocuments(t)).toEqual(before);
    // Another address still signs up.
    const ok = await signUp("fine@example.com");
    expect(ok.tokens?.token).toBeTruthy();
  });

  test("sign-ups: 30 a minute across the site, then refused", async () => {
    const t = newTest();
    const signUp = (i: number) =>
      t.action(api.auth.signIn, {
        provider: "password",
        params: { email: `bot${i}@example.com`, password: "long-enough", flow: "signUp" },
      });
    // The bucket is sharded (10 shards of 3, each sign-up takes from the fuller of two random
    // shards), so a refusal may come before the 30th; with the clock still, the site as a whole
    // still takes exactly 30 over enough attempts, never more.
    let signedUp = 0;
    let refusal: Promise<unknown> | null = null;
    for (let i = 0; i < 120; i++) {
      const attempt = signUp(i);
      if (
        await attempt.then(
          () => true,
          () => false,
        )
      )
        signedUp++;
      else refusal ??= attempt;
    }
    expect(signedUp).toBe(30);
    const data = await expectAppError(
      refusal!,
      "RATE_LIMITED",
      "Too many sign-ups right now. Please try again in a few minutes.",
    );
    expect(data).toMatchObject({ limit: "signUp" });
    vi.setSystemTime(NOW + 60 * 1000);
    expect((await signUp(1000)).tokens?.token).toBeTruthy();
  });

  test("sign-ups: refused ones (short password, bad email, an existing account) spend none of the site's allowance", async () => {
    vi.stubEnv("SIGN_UP_LIMIT_PER_MINUTE", "3");
    const t = newTest();
    const signUp = (email: string, password: string) =>
      t.action(api.auth.signIn, { provider: "password", params: { email, password, flow: "signUp" } });
    expect((await signUp("taken@example.com", "long-enough")).tokens?.token).toBeTruthy();
    // A stranger's junk, many times the allowance: every one refused before hashing.
    for (let i = 0; i < 30; i++) {
      await expectAppError(
        signUp(`junk${i}@example.com`, "x"),
        "INVALID_INPUT",
        "Password must be at least 6 characters",
      );
      await expectAppError(signUp("   ", "long-enough"), "INVALID_INPUT");
    }
    // Sign-ups on an existing email check the password like a sign-in (its lockout policy), not the sign-up allowance.
    for (let i = 0; i < 5; i++) await expectAppError(signUp("taken@example.com", `guess-${i}`), "ALREADY_EXISTS");
    // Real comedians still sign up: the two tokens left of 3.
    expect((await signUp("bob@example.com", "correct-horse")).tokens?.token).toBeTruthy();
    expect((await signUp("carol@example.com", "correct-horse")).tokens?.token).toBeTruthy();
    expect(await expectAppError(signUp("dave@example.com", "correct-horse"), "RATE_LIMITED")).toMatchObject({
      limit: "signUp",
    });
  });

  test("sign-ups: a deployment's SIGN_UP_LIMIT_PER_MINUTE sets the site-wide allowance (nonsense keeps 30)", async () => {
    const t = newTest();
    const signUp = (i: number) =>
      t.action(api.auth.signIn, {
        provider: "password",
        params: { email: `env${i}@example.com`, password: "long-enough", flow: "signUp" },
      });
    vi.stubEnv("SIGN_UP_LIMIT_PER_MINUTE", "3");
    try {
      for (let i = 0; i < 3; i++) expect((await signUp(i)).tokens?.token).toBeTruthy();
      expect(await expectAppError(signUp(3), "RATE_LIMITED")).toMatchObject({ limit: "signUp" });
    } finally {
      vi.unstubAllEnvs();
    }
    vi.stubEnv("SIGN_UP_LIMIT_PER_MINUTE", "Infinity");
    try {
      expect(signUpConfig()).toMatchObject({ rate: 30, capacity: 30 });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  test("photo upload URLs: 10 an hour per user, the 11th is refused with a message", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const other = await createUser(t);
    for (let i = 0; i < 10; i++)
      expect(typeof (await comic.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
    const data = await expectAppError(
      comic.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}),
      "RATE_LIMITED",
      "Too many photo uploads. Please try again in 6 minutes.",
    );
    expect(data).toMatchObject({ limit: "photoUpload" });
    // Another user is not limited; the allowance comes back with time.
    expect(typeof (await other.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
    vi.setSystemTime(NOW + 6 * 60 * 1000);
    expect(typeof (await comic.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
  });

  test("live-list sign-ups: 20 an hour per comedian (sign-up and drop-out churn), the 21st is refused and writes nothing", async () => {
    // These accounts are minutes old; the minimum account age has its own test.
    vi.stubEnv("LIST_MIN_ACCOUNT_AGE_HOURS", "0");
    const t = newTest();
    const host = await createUser(t, { name: "Hana Host" });
    const comic = await createUser(t);
    const other = await createUser(t);
    // A Friday mic (NOW is Friday 15:00 in New York) whose host is its approved claimant.
    const micId = await createSceneItem(t, {
      title: "Friday Laughs",
      dayOfWeek: 5,
      startTimeLocal: "20:00",
      listTimeLocal: "19:30",
    });
    await t.run(async (ctx) => {
      await ctx.db.insert("micClaims", { micId, claimantId: host.userId, status: "approved" });
    });
    const listId = await host.asUser.mutation(api.nightLists.open, {
      micId,
      date: "2026-11-20",
      spots: 5,
      waitlistSpots: 2,
      lightMinutes: 1,
      mode: "first_come",
      signupOpensAt: NOW,
    });
    for (let i = 0; i < 20; i++) {
      await comic.asUser.mutation(api.nightLists.signUp, { listId });
      await comic.asUser.mutation(api.nightLists.dropOut, { listId });
    }
    const spots = () => t.run(async (ctx) => await ctx.db.query("listSpots").collect());
    const before = await spots();
    const data = await expectAppError(
      comic.asUser.mutation(api.nightLists.signUp, { listId }),
      "RATE_LIMITED",
      "Too many list sign-ups. Please try again in 3 minutes.",
    );
    expect(data).toMatchObject({ limit: "listSignUp" });
    expect(await spots()).toEqual(before);
    // Another comedian signs up; the comedian may again a few minutes later.
    expect(await other.asUser.mutation(api.nightLists.signUp, { listId })).toHaveProperty("spotId");
    vi.setSystemTime(NOW + 3 * 60 * 1000);
    expect(await comic.asUser.mutation(api.nightLists.signUp, { listId })).toHaveProperty("spotId");
    vi.unstubAllEnvs();
  });
});
