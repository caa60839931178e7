/**
 * 29.4: the email's local part published on live lists. An empty display name
 * used to become the part of the email before "@", which the public
 * `nightLists:current` (and the room screen) shows to anyone. Replayed through
 * the real client against a running backend serving the app's convex/ folder:
 * a comedian who signs up without a name is asked for a stage name before a
 * list sign-up, an anonymous reader of the list never sees the email, and the
 * operator's backfill renames profiles and list rows that still carry it.
 */
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { STAGE_NAME_REQUIRED_MESSAGE } from "@convex/lib/profileRules";
import { expectAppError } from "@convex/testing/test.expect";
import { backend, cliRun, createOpenMic, PASSWORD, signUp, useAppBackend } from "./support/app";

useAppBackend();

beforeAll(async () => {
  const set = await backend.cli(["env", "set", "LIST_MIN_ACCOUNT_AGE_HOURS", "0"]);
  expect(set.code, set.stderr).toBe(0);
});

afterAll(async () => {
  await backend?.cli(["env", "remove", "LIST_MIN_ACCOUNT_AGE_HOURS"]);
});

/** The sign-up form with the name left blank; a client signed in as that account. */
async function signUpWithoutName(email: string): Promise<ConvexHttpClient> {
  const result = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password: PASSWORD, flow: "signUp" },
  })) as { tokens?: { token: string } | null };
  expect(result.tokens).toBeTruthy();
  const http = new ConvexHttpClient(backend.url);
  http.setAuth(result.tokens!.token);
  return http;
}

async function openTonight(title: string) {
  const host = await signUp(`host-${title.replace(/\W+/g, "-").toLowerCase()}@example.com`, "Hana Host");
  await cliRun("admin:setAdmin", { email: host.email, isAdmin: true });
  const micId = await createOpenMic(host, title);
  const listId = await host.http.mutation(api.nightLists.open, {
    micId,
    date: new Date().toISOString().slice(0, 10),
    spots: 5,
    waitlistSpots: 1,
    lightMinutes: 1,
    mode: "first_come",
    signupOpensAt: Date.now() - 60_000,
  });
  return { micId, listId };
}

/** The public list as any visitor reads it. */
async function publicList(micId: Awaited<ReturnType<typeof openTonight>>["micId"]): Promise<string> {
  return JSON.stringify(await backend.httpClient().query(api.nightLists.current, { micId }));
}

describe("29.4: no public name from an email", () => {
  test("a comedian who signed up without a name is asked for a stage name; the public list never shows the email", async () => {
    const { micId, listId } = await openTonight("Stage Name Mic");
    const ana = await signUpWithoutName("ana.secret.lopez@example.com");
    expect((await ana.query(api.profiles.me, {}))?.displayName).toBe("Comedian");
    await expectAppError(
      ana.mutation(api.nightLists.signUp, { listId }),
      "STAGE_NAME_REQUIRED",
      STAGE_NAME_REQUIRED_MESSAGE,
    );
    expect(await publicList(micId)).not.toContain("ana.secret.lopez");

    await ana.mutation(api.profiles.setStageName, { stageName: "Ana Lopez" });
    await ana.mutation(api.nightLists.signUp, { listId });
    const shown = await publicList(micId);
    expect(shown).toContain("Ana Lopez");
    expect(shown).not.toContain("ana.secret.lopez");
  });

  test("the backfill renames a profile and list rows still named after the email", async () => {
    const { micId, listId } = await openTonight("Backfill Mic");
    // The state the app once left: the local part as the profile's name, copied onto the list.
    const bo = await signUp("bo.private@example.com", "bo.private");
    await bo.http.mutation(api.nightLists.signUp, { listId });
    expect(await publicList(micId)).toContain("bo.private");

    const run = await cliRun("migrations:stageNamesFromEmail", {});
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ isDone: true });
    expect(await publicList(micId)).not.toContain("bo.private");
    expect((await bo.http.query(api.profiles.me, {}))?.displayName).toBe("Comedian");
    // Asked again before the next list.
    const next = await openTonight("Backfill Mic Two");
    await expectAppError(bo.http.mutation(api.nightLists.signUp, { listId: next.listId }), "STAGE_NAME_REQUIRED");
  });
});
