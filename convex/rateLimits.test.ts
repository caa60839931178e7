/**
 * The app's rate limits (rateLimits.ts, kept by the @convex-dev/rate-limiter
 * component): for each, the call after the allowance is refused with its
 * message and writes nothing; other comedians are not affected; the allowance
 * comes back with time.
 */
import { exportPKCS8, generateKeyPair } from "jose";
import { ConvexError } from "convex/values";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date.
import "./lib/time";
import type { EventDetails, VenueInput } from "./model/events";
import { readCommunityTotals } from "./model/stats";
import { createSceneItem, createUser, newTest, type TestBackend } from "./test.setup";
import { checkAllInvariants } from "./test.invariants";
import { signUpConfig } from "./rateLimits";

const NOW = Date.parse("2026-11-20T15:00:00-05:00");
const HOUR = 60 * 60 * 1000;

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

let privateKey = "";
beforeAll(async () => {
  const keys = await generateKeyPair("RS256", { extractable: true });
  privateKey = await exportPKCS8(keys.privateKey);
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  // Convex Auth signs session JWTs with JWT_PRIVATE_KEY.
  vi.stubEnv("JWT_PRIVATE_KEY", privateKey);
  vi.stubEnv("CONVEX_SITE_URL", "http://127.0.0.1:3211");
  vi.stubEnv("SITE_URL", "http://localhost:5173");
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

async function refusal(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as ConvexError<any>).data as Record<string, unknown>;
  }
  throw new Error("expected the call to be refused");
}

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

const VENUE: VenueInput = {
  venueName: "The Creek and the Cave",
  address: "10-93 Jackson Ave, Long Island City, NY 11101",
  googlePlaceId: "place-creek",
  latitude: 40.7425,
  longitude: -73.9526,
};

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
    const data = await refusal(comic.asUser.mutation(api.events.create, { venue: VENUE, details: mic(10) }));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "createMic",
      message: expect.stringMatching(
        /^You have added a lot of events today\. Please try again in \d+ (minutes|hours)\.$/,
      ),
    });
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
    const data = await refusal(comic.asUser.mutation(api.reports.submit, { micId: mics[10], kind: "wrong_time" }));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "problemReport",
      message: "Too many reports. Please try again in 6 minutes.",
    });
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
    const data = await refusal(comic.asUser.mutation(api.claims.submit, { micId: mics[5] }));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "micClaim",
      message: "Too many claims. Please try again in 5 hours.",
    });
    expect(await appDocuments(t)).toEqual(before);
    await other.asUser.mutation(api.claims.submit, { micId: mics[5] });
  });

  test("sign-ups: 5 an hour per email address, then refused before any account is made", async () => {
    const t = newTest();
    const signUp = (email: string, password = "short") =>
      t.action(api.auth.signIn, { provider: "password", params: { email, password, flow: "signUp" } });
    // Failed sign-ups (password too short) use the allowance too: it is taken before hashing.
    for (let i = 0; i < 5; i++) await refusal(signUp("flood@example.com"));
    const before = await appDocuments(t);
    const data = await refusal(signUp("flood@example.com", "long-enough"));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "signUpEmail",
      message: "Too many sign-up attempts for this email. Please try again in 12 minutes.",
    });
    expect(await appDocuments(t)).toEqual(before);
    // Another address still signs up.
    const ok = await signUp("fine@example.com", "long-enough");
    expect(ok.tokens?.token).toBeTruthy();
  });

  test("sign-ups: 30 a minute across the site, the 31st is refused", async () => {
    const t = newTest();
    const signUp = (i: number) =>
      t.action(api.auth.signIn, {
        provider: "password",
        params: { email: `bot${i}@example.com`, password: "x", flow: "signUp" },
      });
    for (let i = 0; i < 30; i++) expect((await refusal(signUp(i))).code).toBe("INVALID_INPUT");
    const data = await refusal(signUp(30));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "signUp",
      message: "Too many sign-ups right now. Please try again in a few minutes.",
    });
    vi.setSystemTime(NOW + 60 * 1000);
    expect((await refusal(signUp(31))).code).toBe("INVALID_INPUT");
  });
  test("sign-ups: a deployment's SIGN_UP_LIMIT_PER_MINUTE sets the site-wide allowance (nonsense keeps 30)", async () => {
    const t = newTest();
    const signUp = (i: number) =>
      t.action(api.auth.signIn, {
        provider: "password",
        params: { email: `env${i}@example.com`, password: "x", flow: "signUp" },
      });
    vi.stubEnv("SIGN_UP_LIMIT_PER_MINUTE", "3");
    try {
      for (let i = 0; i < 3; i++) expect((await refusal(signUp(i))).code).toBe("INVALID_INPUT");
      expect(await refusal(signUp(3))).toMatchObject({ code: "RATE_LIMITED", limit: "signUp" });
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
    const data = await refusal(comic.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "photoUpload",
      message: "Too many photo uploads. Please try again in 6 minutes.",
    });
    // Another user is not limited; the allowance comes back with time.
    expect(typeof (await other.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
    vi.setSystemTime(NOW + 6 * 60 * 1000);
    expect(typeof (await comic.asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
  });

  test("live-list sign-ups: 20 an hour per comedian (sign-up and drop-out churn), the 21st is refused and writes nothing", async () => {
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
    const data = await refusal(comic.asUser.mutation(api.nightLists.signUp, { listId }));
    expect(data).toMatchObject({
      code: "RATE_LIMITED",
      limit: "listSignUp",
      message: "Too many list sign-ups. Please try again in 3 minutes.",
    });
    expect(await spots()).toEqual(before);
    // Another comedian signs up; the comedian may again a few minutes later.
    expect(await other.asUser.mutation(api.nightLists.signUp, { listId })).toMatchObject({ section: "list" });
    vi.setSystemTime(NOW + 3 * 60 * 1000);
    expect(await comic.asUser.mutation(api.nightLists.signUp, { listId })).toMatchObject({ section: "list" });
  });
});
