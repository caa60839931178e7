import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { setAdmin } from "./admin";
import { expectAppError } from "./testing/test.expect";
import { createAdmin, createUser, newTest, signedInAs } from "./testing/test.setup";

afterEach(() => {
  vi.unstubAllEnvs();
});

async function profileOf(t: ReturnType<typeof newTest>, userId: string) {
  return await t.run(async (ctx) =>
    ctx.db
      .query("profiles")
      .withIndex("by_userId", (q) => q.eq("userId", userId as never))
      .collect(),
  );
}

describe("profiles.me", () => {
  test("is null for an anonymous visitor", async () => {
    const t = newTest();
    expect(await t.query(api.profiles.me, {})).toBeNull();
  });

  test("describes the signed-in comedian", async () => {
    const t = newTest();
    const { userId, asUser } = await createUser(t, {
      email: "dana@example.com",
      name: "Dana",
      profile: { defaultCity: "Chicago", weeklyGoalMinutes: 30 },
    });
    const created = await t.run(async (ctx) => (await ctx.db.get("users", userId))!._creationTime);
    expect(await asUser.query(api.profiles.me, {})).toEqual({
      userId,
      displayName: "Dana",
      email: "dana@example.com",
      photoUrl: null,
      onboardingCompleted: true,
      needsOnboarding: false,
      weeklyGoalMinutes: 30,
      defaultCity: "Chicago",
      isAdmin: false,
      memberSince: created,
      hasProfile: true,
    });
  });

  test("fills defaults when the profile row is missing", async () => {
    const t = newTest();
    const userId = await t.run(async (ctx) => ctx.db.insert("users", { email: "old.timer@example.com" }));
    const me = await (await signedInAs(t, userId)).query(api.profiles.me, {});
    expect(me).toMatchObject({
      userId,
      displayName: "Comedian",
      hasProfile: false,
      needsOnboarding: true,
      onboardingCompleted: false,
      weeklyGoalMinutes: 15,
      isAdmin: false,
      defaultCity: null,
    });
  });

  test("uses the Google picture when no photo was uploaded", async () => {
    const t = newTest();
    const { userId, asUser } = await createUser(t);
    await t.run(async (ctx) => ctx.db.patch("users", userId, { image: "https://example.com/me.png" }));
    expect((await asUser.query(api.profiles.me, {}))?.photoUrl).toBe("https://example.com/me.png");
  });
});

describe("profiles.isAdmin", () => {
  test("is false when signed out, false for a comedian, true for an admin", async () => {
    const t = newTest();
    const comic = await createUser(t);
    const admin = await createAdmin(t);
    expect(await t.query(api.profiles.isAdmin, {})).toBe(false);
    expect(await comic.asUser.query(api.profiles.isAdmin, {})).toBe(false);
    expect(await admin.asUser.query(api.profiles.isAdmin, {})).toBe(true);
  });
});

describe("profiles.ensure", () => {
  test("creates a missing profile once and counts the comedian once", async () => {
    const t = newTest();
    const userId = await t.run(async (ctx) =>
      ctx.db.insert("users", { email: "late@example.com", name: "Late Larry" }),
    );
    const asUser = await signedInAs(t, userId);
    const first = await asUser.mutation(api.profiles.ensure, {});
    const second = await asUser.mutation(api.profiles.ensure, {});
    expect(first).toMatchObject({
      displayName: "Late Larry",
      hasProfile: true,
      needsOnboarding: true,
      onboardingCompleted: false,
      weeklyGoalMinutes: 15,
    });
    expect(second).toEqual(first);
    expect(await profileOf(t, userId)).toHaveLength(1);
    expect(await t.query(api.community.stats, {})).toMatchObject({ comedians: 1 });
  });

  test("leaves an existing profile untouched", async () => {
    const t = newTest();
    const { userId, asUser } = await createUser(t, { profile: { weeklyGoalMinutes: 45 } });
    const me = await asUser.mutation(api.profiles.ensure, {});
    expect(me.weeklyGoalMinutes).toBe(45);
    expect(await profileOf(t, userId)).toHaveLength(1);
  });

  test("makes an ADMIN_EMAILS account with a verified email an admin", async () => {
    vi.stubEnv("ADMIN_EMAILS", "chief@example.com");
    const t = newTest();
    const userId = await t.run(async (ctx) =>
      ctx.db.insert("users", { email: "chief@example.com", emailVerificationTime: Date.now() }),
    );
    const me = await (await signedInAs(t, userId)).mutation(api.profiles.ensure, {});
    expect(me.isAdmin).toBe(true);
  });

  test("an ADMIN_EMAILS address nobody verified (a password account) is not an admin", async () => {
    vi.stubEnv("ADMIN_EMAILS", "chief@example.com");
    const t = newTest();
    const userId = await t.run(async (ctx) => ctx.db.insert("users", { email: "chief@example.com" }));
    const me = await (await signedInAs(t, userId)).mutation(api.profiles.ensure, {});
    expect(me.isAdmin).toBe(false);
  });

  test("needs a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(t.mutation(api.profiles.ensure, {}), "NOT_SIGNED_IN", /sign in/i);
  });
});

describe("onboarding", () => {
  test("skipOnboarding finishes onboarding with the default goal", async () => {
    const t = newTest();
    const { asUser } = await createUser(t, {
      needsOnboarding: true,
      profile: { weeklyGoalMinutes: 60 },
    });
    await asUser.mutation(api.profiles.skipOnboarding, {});
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({
      needsOnboarding: false,
      onboardingCompleted: true,
      weeklyGoalMinutes: 15,
    });
  });

  test("completeOnboarding sets both flags and the goal", async () => {
    const t = newTest();
    const { asUser } = await createUser(t, { needsOnboarding: true });
    await asUser.mutation(api.profiles.completeOnboarding, { weeklyGoalMinutes: 100 });
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({
      needsOnboarding: false,
      onboardingCompleted: true,
      weeklyGoalMinutes: 100,
    });
  });

  test.each([0, 101, 1.5, -5])("completeOnboarding rejects a goal of %s", async (goal) => {
    const t = newTest();
    const { asUser } = await createUser(t, { needsOnboarding: true });
    await expect(asUser.mutation(api.profiles.completeOnboarding, { weeklyGoalMinutes: goal })).rejects.toThrow(
      "Invalid goal - Please enter a goal between 1 and 100 minutes.",
    );
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({
      needsOnboarding: true,
      onboardingCompleted: false,
      weeklyGoalMinutes: 15,
    });
  });

  test("onboarding mutations need a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(t.mutation(api.profiles.skipOnboarding, {}), "NOT_SIGNED_IN", /sign in/i);
    await expectAppError(
      t.mutation(api.profiles.completeOnboarding, { weeklyGoalMinutes: 20 }),
      "NOT_SIGNED_IN",
      /sign in/i,
    );
  });
});

describe("admin.setAdmin", () => {
  test("is internal: the public api has no way to grant admin", () => {
    // Registered functions carry their visibility; a public one could be called by any client.
    const registered = setAdmin as unknown as { isInternal?: boolean; isPublic?: boolean };
    expect(registered.isInternal).toBe(true);
    expect(registered.isPublic).toBeFalsy();
    // @ts-expect-error setAdmin is not part of the public api.
    void api.admin.setAdmin;
  });

  test("grants and revokes admin rights by email, in any case", async () => {
    const t = newTest();
    const { asUser } = await createUser(t, { email: "promote@example.com" });
    await t.mutation(internal.admin.setAdmin, { email: " Promote@Example.com", isAdmin: true });
    expect(await asUser.query(api.profiles.isAdmin, {})).toBe(true);
    await t.mutation(internal.admin.setAdmin, { email: "promote@example.com", isAdmin: false });
    expect(await asUser.query(api.profiles.isAdmin, {})).toBe(false);
  });

  test("refuses an email two accounts share, and promotes neither", async () => {
    // The attack: a password account registered with the admin's address.
    const t = newTest();
    const owner = await createUser(t, { email: "boss@example.com" });
    const squatter = await createUser(t, { email: "boss@example.com" });
    await expect(t.mutation(internal.admin.setAdmin, { email: "boss@example.com", isAdmin: true })).rejects.toThrow(
      /2 accounts use the email boss@example.com .*name one with .*userId/,
    );
    expect(await owner.asUser.query(api.profiles.isAdmin, {})).toBe(false);
    expect(await squatter.asUser.query(api.profiles.isAdmin, {})).toBe(false);
    // Named by id, exactly that account changes.
    const result = await t.mutation(internal.admin.setAdmin, { userId: owner.userId, isAdmin: true });
    expect(result).toEqual({ userId: owner.userId, email: "boss@example.com", isAdmin: true });
    expect(await owner.asUser.query(api.profiles.isAdmin, {})).toBe(true);
    expect(await squatter.asUser.query(api.profiles.isAdmin, {})).toBe(false);
  });

  test("refuses a user id whose account has another email, and a call naming no account", async () => {
    const t = newTest();
    const { userId } = await createUser(t, { email: "a@example.com" });
    await expect(
      t.mutation(internal.admin.setAdmin, { userId, email: "b@example.com", isAdmin: true }),
    ).rejects.toThrow(/does not have the email b@example.com/);
    await expect(t.mutation(internal.admin.setAdmin, { isAdmin: true })).rejects.toThrow(/Name the account/);
  });

  test("fails for an unknown email", async () => {
    const t = newTest();
    await expect(t.mutation(internal.admin.setAdmin, { email: "nobody@example.com", isAdmin: true })).rejects.toThrow(
      "No account with the email nobody@example.com.",
    );
  });
});

/** Stores a blob the way an upload does: the file plus its content type on the _storage row. */
async function storeUpload(t: ReturnType<typeof newTest>, bytes: number, contentType: string) {
  return await t.run(async (ctx) => {
    const id = await ctx.storage.store(new Blob([new Uint8Array(bytes)], { type: contentType }));
    // convex-test leaves the content type off; Convex records the upload's Content-Type.
    await (ctx.db as unknown as { patch: (t: string, id: string, v: object) => Promise<void> }).patch("_storage", id, {
      contentType,
    });
    return id;
  });
}

async function fileExists(t: ReturnType<typeof newTest>, id: string) {
  return await t.run(async (ctx) => (await ctx.db.system.get("_storage", id as never)) !== null);
}

describe("profiles.update", () => {
  test("saves a trimmed name, the goal and the city; a blank city clears it", async () => {
    const t = newTest();
    const { asUser } = await createUser(t, { profile: { defaultCity: "Austin" } });
    await asUser.mutation(api.profiles.update, {
      displayName: "  Mo Amer ",
      weeklyGoalMinutes: 1000,
      defaultCity: " Houston ",
    });
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({
      displayName: "Mo Amer",
      weeklyGoalMinutes: 1000,
      defaultCity: "Houston",
    });
    await asUser.mutation(api.profiles.update, { displayName: "Mo", weeklyGoalMinutes: 1, defaultCity: "  " });
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({ weeklyGoalMinutes: 1, defaultCity: null });
  });

  test.each([
    [{ displayName: "   ", weeklyGoalMinutes: 15 }, "Display name is required."],
    [{ displayName: "x".repeat(61), weeklyGoalMinutes: 15 }, "Display name must be 60 characters or fewer."],
    [{ displayName: "Ok", weeklyGoalMinutes: 0 }, "Weekly goal must be a whole number from 1 to 1000 minutes."],
    [{ displayName: "Ok", weeklyGoalMinutes: 1001 }, "Weekly goal must be a whole number from 1 to 1000 minutes."],
    [{ displayName: "Ok", weeklyGoalMinutes: 2.5 }, "Weekly goal must be a whole number from 1 to 1000 minutes."],
    [
      { displayName: "Ok", weeklyGoalMinutes: 15, defaultCity: "c".repeat(81) },
      "Default city must be 80 characters or fewer.",
    ],
  ])("refuses %j", async (args, message) => {
    const t = newTest();
    const { asUser } = await createUser(t, { name: "Before" });
    await expectAppError(asUser.mutation(api.profiles.update, args), "INVALID_INPUT", message);
    expect(await asUser.query(api.profiles.me, {})).toMatchObject({ displayName: "Before", weeklyGoalMinutes: 15 });
  });

  test("needs a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(
      t.mutation(api.profiles.update, { displayName: "Anon", weeklyGoalMinutes: 15 }),
      "NOT_SIGNED_IN",
      /sign in/i,
    );
  });
});

describe("profile photo", () => {
  test("an image under 5 MB becomes the photo and replaces (deletes) the old one", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    expect(typeof (await asUser.mutation(api.profiles.generatePhotoUploadUrl, {}))).toBe("string");
    const first = await storeUpload(t, 1024, "image/png");
    expect(await asUser.mutation(api.profiles.setPhoto, { storageId: first })).toEqual({ ok: true });
    const me = await asUser.query(api.profiles.me, {});
    expect(me?.photoUrl).toEqual(expect.any(String));
    expect(me?.photoUrl).not.toBeNull();

    const second = await storeUpload(t, 5 * 1024 * 1024 - 1, "image/jpeg");
    await asUser.mutation(api.profiles.setPhoto, { storageId: second });
    expect(await fileExists(t, first)).toBe(false);
    expect(await fileExists(t, second)).toBe(true);
    const again = await asUser.query(api.profiles.me, {});
    expect(again?.photoUrl).not.toEqual(me?.photoUrl);
  });

  test("a file that is not an image is refused and deleted; the old photo stays", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    const photo = await storeUpload(t, 100, "image/png");
    await asUser.mutation(api.profiles.setPhoto, { storageId: photo });
    const pdf = await storeUpload(t, 100, "application/pdf");
    expect(await asUser.mutation(api.profiles.setPhoto, { storageId: pdf })).toEqual({
      ok: false,
      message: "Please select an image file",
    });
    expect(await fileExists(t, pdf)).toBe(false);
    expect(await fileExists(t, photo)).toBe(true);
  });

  test("an SVG is refused like a non-image: it could carry script", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    const svg = await storeUpload(t, 100, "image/svg+xml");
    expect(await asUser.mutation(api.profiles.setPhoto, { storageId: svg })).toEqual({
      ok: false,
      message: "Please select an image file",
    });
    expect(await fileExists(t, svg)).toBe(false);
  });

  test("an image of 5 MB or more is refused and deleted", async () => {
    const t = newTest();
    const { asUser } = await createUser(t);
    const big = await storeUpload(t, 5 * 1024 * 1024, "image/png");
    expect(await asUser.mutation(api.profiles.setPhoto, { storageId: big })).toEqual({
      ok: false,
      message: "Image must be less than 5MB",
    });
    expect(await fileExists(t, big)).toBe(false);
    expect((await asUser.query(api.profiles.me, {}))?.photoUrl).toBeNull();
  });

  test("another comedian's photo cannot be claimed (and so cannot be deleted through it)", async () => {
    const t = newTest();
    const owner = await createUser(t);
    const thief = await createUser(t);
    const photo = await storeUpload(t, 100, "image/png");
    await owner.asUser.mutation(api.profiles.setPhoto, { storageId: photo });
    await expectAppError(
      thief.asUser.mutation(api.profiles.setPhoto, { storageId: photo }),
      "FORBIDDEN",
      "That photo belongs to another comedian.",
    );
    const next = await storeUpload(t, 100, "image/png");
    await thief.asUser.mutation(api.profiles.setPhoto, { storageId: next });
    expect(await fileExists(t, photo)).toBe(true);
    // Setting one's own current photo again is harmless.
    expect(await owner.asUser.mutation(api.profiles.setPhoto, { storageId: photo })).toEqual({ ok: true });
    expect(await fileExists(t, photo)).toBe(true);
  });

  test("needs a signed-in caller", async () => {
    const t = newTest();
    await expectAppError(t.mutation(api.profiles.generatePhotoUploadUrl, {}), "NOT_SIGNED_IN", /sign in/i);
    const id = await storeUpload(t, 10, "image/png");
    await expectAppError(t.mutation(api.profiles.setPhoto, { storageId: id }), "NOT_SIGNED_IN", /sign in/i);
  });
});
