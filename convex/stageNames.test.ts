/**
 * Stage names: no public name is ever derived from an email. A comedian who
 * signed up without a name is shown as "Comedian" and is asked for a stage
 * name before a first list sign-up; a typed name is normalised and cannot be
 * the default; profiles and list rows still carrying an email's local part are
 * renamed by `migrations:stageNamesFromEmail`.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import {
  DEFAULT_STAGE_NAME,
  DEFAULT_STAGE_NAME_MESSAGE,
  MAX_DISPLAY_NAME_LENGTH,
  signUpName,
  STAGE_NAME_EMPTY_MESSAGE,
  STAGE_NAME_REQUIRED_MESSAGE,
} from "./lib/profileRules";
import { displayNameFor } from "./model/profiles";
import { expectAppError } from "./testing/test.expect";
import { DAY, host, mic, names, NOW, openList, t, useWednesdayNight, view } from "./testing/test.nightLists";
import { createAdmin } from "./testing/test.setup";

useWednesdayNight();

/** An account made by a sign-up that left the name blank, its profile created by the app (`profiles.ensure`). */
async function accountWithoutName(email: string) {
  const ids = await t.run(async (ctx) => {
    const userId = await ctx.db.insert("users", { email });
    const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: NOW + DAY });
    return { userId, sessionId };
  });
  const asUser = t.withIdentity({ subject: `${ids.userId}|${ids.sessionId}` });
  await asUser.mutation(api.profiles.ensure, {});
  return { ...ids, asUser };
}

/** Every string the public list query answers, flattened. */
async function publicListText(): Promise<string> {
  return JSON.stringify(await t.query(api.nightLists.current, { micId: mic }));
}

describe("no name from an email", () => {
  test("a comedian who signed up without a name is shown as Comedian, never by their email's local part", async () => {
    const ana = await accountWithoutName("ana.lopez@example.com");
    const me = await ana.asUser.query(api.profiles.me, {});
    expect(me?.displayName).toBe(DEFAULT_STAGE_NAME);
    expect(displayNameFor({ name: undefined })).toBe(DEFAULT_STAGE_NAME);
    // A claim filed before a name is chosen: the admin queue does not show the email either.
    await ana.asUser.mutation(api.claims.submit, { micId: mic });
    const admin = await createAdmin(t);
    const claims = await admin.asUser.query(api.claims.list, {
      queue: "pending",
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(JSON.stringify(claims)).not.toContain("ana.lopez");
  });

  test("the list asks for a stage name first; once chosen, the list shows it and never the email", async () => {
    await openList();
    const ana = await accountWithoutName("ana.lopez@example.com");
    await expectAppError(
      ana.asUser.mutation(api.nightLists.signUp, { listId: (await view()).list!._id }),
      "STAGE_NAME_REQUIRED",
      STAGE_NAME_REQUIRED_MESSAGE,
    );
    expect((await view()).list!.list).toEqual([]);

    expect(await ana.asUser.mutation(api.profiles.setStageName, { stageName: "  Ana   Lopez " })).toBe("Ana Lopez");
    await ana.asUser.mutation(api.nightLists.signUp, { listId: (await view()).list!._id });
    expect(names((await view()).list!.list)).toEqual(["Ana Lopez"]);
    expect(await publicListText()).not.toContain("ana.lopez");
  });

  test("a Google name with control characters is cleaned, not published as is", () => {
    expect(displayNameFor({ name: "  Sam\u202e\r\nSmith  " })).toBe("Sam Smith");
    expect(displayNameFor({ name: "comedian" })).toBe(DEFAULT_STAGE_NAME);
    expect(displayNameFor({ name: "x".repeat(100) })).toBe("x".repeat(MAX_DISPLAY_NAME_LENGTH));
  });
});

describe("the stage name rule", () => {
  test("normalised: spaces collapsed, trimmed, composed (NFC)", async () => {
    const ana = await accountWithoutName("ana@example.com");
    expect(await ana.asUser.mutation(api.profiles.setStageName, { stageName: " Jose\u0301   Li " })).toBe("José Li");
    expect((await ana.asUser.query(api.profiles.me, {}))?.displayName).toBe("José Li");
  });

  test("refused: blank, the default in any case, too long, control characters", async () => {
    const ana = await accountWithoutName("ana@example.com");
    const set = (stageName: string) => ana.asUser.mutation(api.profiles.setStageName, { stageName });
    await expectAppError(set("   "), "INVALID_INPUT", STAGE_NAME_EMPTY_MESSAGE);
    for (const name of ["Comedian", " comedian ", "COMEDIAN"])
      await expectAppError(set(name), "INVALID_INPUT", DEFAULT_STAGE_NAME_MESSAGE);
    await expectAppError(
      set("x".repeat(MAX_DISPLAY_NAME_LENGTH + 1)),
      "INVALID_INPUT",
      `Stage name must be ${MAX_DISPLAY_NAME_LENGTH} characters or fewer.`,
    );
    for (const name of ["Ana\rLopez", "Ana\u202eLopez", "Ana\nLopez", "Ana\u2028Lopez"])
      await expectAppError(set(name), "INVALID_INPUT", "Stage name must not contain control characters");
    expect((await ana.asUser.query(api.profiles.me, {}))?.displayName).toBe(DEFAULT_STAGE_NAME);
    expect(await set("x".repeat(MAX_DISPLAY_NAME_LENGTH))).toBe("x".repeat(MAX_DISPLAY_NAME_LENGTH));
  });

  test("the profile form follows the same rule", async () => {
    const update = (displayName: string) =>
      host.asUser.mutation(api.profiles.update, { displayName, weeklyGoalMinutes: 15 });
    await expectAppError(update("comedian"), "INVALID_INPUT", DEFAULT_STAGE_NAME_MESSAGE);
    await expectAppError(update("  "), "INVALID_INPUT", "Display name is required.");
    await update("  Hana    Host ");
    expect((await host.asUser.query(api.profiles.me, {}))?.displayName).toBe("Hana Host");
  });

  test("sign-up's name: normalised; blank or the default means none chosen yet", () => {
    expect(signUpName("  Ana   Lopez ")).toBe("Ana Lopez");
    expect(signUpName("Comedian")).toBeUndefined();
    expect(signUpName("   ")).toBeUndefined();
    expect(signUpName(undefined)).toBeUndefined();
  });
});

describe("migrations:stageNamesFromEmail", () => {
  /** A profile and list row as the app once wrote them: the email's local part as the name. */
  async function legacyComedian(email: string, displayName: string, listId?: Id<"nightLists">) {
    return await t.run(async (ctx) => {
      const userId = await ctx.db.insert("users", { email });
      const profileId = await ctx.db.insert("profiles", {
        userId,
        displayName,
        weeklyGoalMinutes: 15,
        needsOnboarding: false,
        onboardingCompleted: true,
        isAdmin: false,
      });
      if (listId !== undefined) {
        await ctx.db.insert("listSpots", {
          listId,
          micId: mic,
          userId,
          name: displayName,
          section: "list",
          rank: 0,
          state: "waiting",
          priority: false,
          bumped: false,
        });
      }
      return { userId, profileId };
    });
  }

  async function runAll() {
    let cursor: string | null = null;
    const totals = { profiles: 0, listRows: 0, calls: 0 };
    for (;;) {
      const result: { profiles: number; listRows: number; isDone: boolean; continueCursor: string } = await t.mutation(
        internal.migrations.stageNamesFromEmail,
        { cursor },
      );
      totals.profiles += result.profiles;
      totals.listRows += result.listRows;
      totals.calls++;
      if (result.isDone) return totals;
      cursor = result.continueCursor;
    }
  }

  test("renames profiles and list rows that carry the email's local part, and nothing else", async () => {
    const listId = await openList();
    const leaked = await legacyComedian("dee.dee@example.com", "dee.dee", listId);
    const leakedCase = await legacyComedian("Bo@Example.com", "BO");
    const chosen = await legacyComedian("sam@example.com", "Sam the Ham", listId);
    // Someone else's local part as a chosen name is not a leak of this account's email.
    const lookalike = await legacyComedian("kim@example.com", "dee.dee");
    for (let i = 0; i < 120; i++) await legacyComedian(`filler${i}@example.com`, `Filler ${i}`);

    const before = await t.query(api.nightLists.current, { micId: mic });
    expect(JSON.stringify(before)).toContain("dee.dee");

    const totals = await runAll();
    expect(totals).toMatchObject({ profiles: 2, listRows: 1 });
    expect(totals.calls).toBeGreaterThan(1);

    const nameOf = (id: Id<"profiles">) => t.run(async (ctx) => (await ctx.db.get("profiles", id))!.displayName);
    expect(await nameOf(leaked.profileId)).toBe(DEFAULT_STAGE_NAME);
    expect(await nameOf(leakedCase.profileId)).toBe(DEFAULT_STAGE_NAME);
    expect(await nameOf(chosen.profileId)).toBe("Sam the Ham");
    expect(await nameOf(lookalike.profileId)).toBe("dee.dee");
    const after = JSON.stringify(await t.query(api.nightLists.current, { micId: mic }));
    expect(after).not.toContain("dee.dee");
    expect(after).toContain("Sam the Ham");

    // A second run changes nothing.
    expect(await runAll()).toMatchObject({ profiles: 0, listRows: 0 });
  });
});
