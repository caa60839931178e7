/**
 * Who may act as a mic's host, for the roles the main matrix (authz.test.ts) cannot tell apart: creator,
 * approved claimant, revoked claimant, admin, stranger; then a mic nobody claimed, then random claim histories.
 */
import fc from "fast-check";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { useFrozenClock } from "./testing/test.clock";
import { expectAppError } from "./testing/test.expect";
import {
  createAdmin,
  createSceneItem,
  createUser,
  newTest,
  type TestBackend,
  type TestUser,
} from "./testing/test.setup";

vi.setConfig({ testTimeout: 120_000 });

const NOW = Date.parse("2026-11-25T19:45:00-05:00");
const TONIGHT = "2026-11-25";
const VENUE = { latitude: 40.7411, longitude: -73.9897 };
const wednesday = { dayOfWeek: 3, startTimeLocal: "20:00", listTimeLocal: "19:30", ...VENUE };

useFrozenClock(NOW);

type Role = "creator" | "claimant" | "revoked" | "admin" | "stranger";
const ROLES: Role[] = ["creator", "claimant", "revoked", "admin", "stranger"];

type HostWorld = {
  t: TestBackend;
  users: Record<Role, TestUser>;
  mic: Id<"sceneItems">;
  /** Tonight's list, opened by the revoked claimant while approved; a comedian signed up. */
  list: Id<"nightLists">;
  /** A claim still pending when the other was approved. */
  fan: TestUser;
};

/**
 * The mic's creator adds it; the "revoked" comedian claims it, is approved,
 * opens tonight's list, and is revoked; then the "claimant" is approved.
 * A fan favourites the mic and signs up on the list, so other comedians' rows
 * point at it.
 */
async function buildHostWorld(): Promise<HostWorld> {
  const t = newTest();
  const [creator, claimant, revoked, stranger, fan] = [
    await createUser(t, { name: "Cleo Creator" }),
    await createUser(t, { name: "Hana Host" }),
    await createUser(t, { name: "Rex Revoked" }),
    await createUser(t, { name: "Sam Stranger" }),
    await createUser(t, { name: "Fay Fan" }),
  ];
  const admin = await createAdmin(t);
  const mic = await createSceneItem(t, { ...wednesday, title: "Cleo's Mic", createdBy: creator.userId });
  const first = await revoked.asUser.mutation(api.claims.submit, { micId: mic });
  await admin.asUser.mutation(api.claims.review, { id: first, status: "approved" });
  const list = await revoked.asUser.mutation(api.nightLists.open, {
    micId: mic,
    date: TONIGHT,
    spots: 5,
    lightMinutes: 1,
    mode: "first_come",
  });
  await fan.asUser.mutation(api.favorites.add, { sceneItemId: mic });
  await fan.asUser.mutation(api.nightLists.signUp, { listId: list });
  await admin.asUser.mutation(api.claims.revoke, { id: first });
  const second = await claimant.asUser.mutation(api.claims.submit, { micId: mic });
  await admin.asUser.mutation(api.claims.review, { id: second, status: "approved" });
  return { t, users: { creator, claimant, revoked, admin, stranger }, mic, list, fan };
}

/** Every row a host call could change: the mic, its lists and spots. */
async function micState(w: HostWorld) {
  return await w.t.run(async (ctx) => ({
    mic: await ctx.db.get("sceneItems", w.mic),
    lists: await ctx.db
      .query("nightLists")
      .withIndex("by_mic_and_date", (q) => q.eq("micId", w.mic))
      .collect(),
    spots: await ctx.db
      .query("listSpots")
      .withIndex("by_mic", (q) => q.eq("micId", w.mic))
      .collect(),
  }));
}

const edit = { title: "Phishing Mic", dayOfWeek: 3, startTimeLocal: "20:00", signupLink: "https://evil.example/list" };
const HOSTS = { creator: false, claimant: true, revoked: false, admin: true, stranger: false } as const;

/** Each host-side function, how to call it on the world, and which roles may. */
const cells: Record<string, { call: (w: HostWorld, u: TestUser) => Promise<unknown>; allowed: Record<Role, boolean> }> =
  {
    "claims:updateOwnMic": {
      call: (w, u) => u.asUser.mutation(api.claims.updateOwnMic, { micId: w.mic, ...edit }),
      allowed: HOSTS,
    },
    "claims:setConfirmedDate": {
      call: (w, u) => u.asUser.mutation(api.claims.setConfirmedDate, { micId: w.mic, date: TONIGHT, confirmed: true }),
      allowed: HOSTS,
    },
    "claims:setCancelledDate": {
      call: (w, u) =>
        u.asUser.mutation(api.claims.setCancelledDate, { micId: w.mic, date: "2026-12-02", cancelled: true }),
      allowed: HOSTS,
    },
    "nightLists:open": {
      call: (w, u) =>
        u.asUser.mutation(api.nightLists.open, {
          micId: w.mic,
          date: "2026-11-26",
          spots: 5,
          lightMinutes: 1,
          mode: "first_come",
        }),
      allowed: HOSTS,
    },
    "nightLists:addWalkIn": {
      call: (w, u) => u.asUser.mutation(api.nightLists.addWalkIn, { listId: w.list, name: "Walk-in Wendy" }),
      allowed: HOSTS,
    },
    "nightLists:close": {
      call: (w, u) => u.asUser.mutation(api.nightLists.close, { listId: w.list }),
      allowed: HOSTS,
    },
    // Other comedians' rows point at the mic: only an admin may delete it.
    "scene:remove": {
      call: (w, u) => u.asUser.mutation(api.scene.remove, { id: w.mic }),
      allowed: { creator: false, claimant: false, revoked: false, admin: true, stranger: false },
    },
  };

describe("host rights by role", () => {
  // The world's accounts are made at its start; the live list's minimum account age has its own tests.
  beforeEach(() => {
    vi.stubEnv("LIST_MIN_ACCOUNT_AGE_HOURS", "0");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test.each(Object.keys(cells).flatMap((name) => ROLES.map((role) => ({ name, role }))))(
    "$name as $role",
    async ({ name, role }) => {
      const w = await buildHostWorld();
      const cell = cells[name];
      const before = await micState(w);
      if (cell.allowed[role]) {
        await cell.call(w, w.users[role]);
        expect(await micState(w), "an allowed call changes the mic or its lists").not.toEqual(before);
      } else {
        await expectAppError(cell.call(w, w.users[role]), "FORBIDDEN");
        expect(await micState(w), "a refused call changes nothing").toEqual(before);
      }
    },
  );

  test("what each role is told it may do: the event page's tools and the live list's host controls", async () => {
    const w = await buildHostWorld();
    for (const role of ROLES) {
      const caller = w.users[role].asUser;
      const state = await caller.query(api.claims.ownerState, { micId: w.mic });
      const current = await caller.query(api.nightLists.viewer, { micId: w.mic });
      expect({ role, edit: state.canManage, host: state.canHost, listHost: current.canHost }).toEqual({
        role,
        edit: HOSTS[role],
        host: HOSTS[role],
        listHost: HOSTS[role],
      });
    }
  });

  test("an admin repairs the host's links, host name and notes from the admin edit", async () => {
    const w = await buildHostWorld();
    await w.users.admin.asUser.mutation(api.admin.updateMic, {
      id: w.mic,
      title: "Cleo's Mic",
      venueName: "The Test Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      status: "active",
      signupLink: "https://example.com/real-list",
      showLink: "",
      hostName: "Hana Host",
      notes: "Sign up at the bar",
    });
    const mic = (await micState(w)).mic!;
    expect(mic).toMatchObject({ signupLink: "https://example.com/real-list", hostName: "Hana Host" });
    expect(mic.notes).toBe("Sign up at the bar");
    expect(mic.showLink).toBeUndefined();
  });
});

describe("a mic nobody has claimed", () => {
  test("its creator edits it but does not host it, and deletes it only while nobody else's row points at it", async () => {
    const t = newTest();
    const creator = await createUser(t);
    const fan = await createUser(t);
    const admin = await createAdmin(t);
    const mic = await createSceneItem(t, { ...wednesday, createdBy: creator.userId });
    await creator.asUser.mutation(api.claims.updateOwnMic, { micId: mic, ...edit, title: "Still Mine" });
    expect(await creator.asUser.query(api.claims.ownerState, { micId: mic })).toMatchObject({
      canManage: true,
      canHost: false,
    });
    await expectAppError(
      creator.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: TONIGHT, confirmed: true }),
      "FORBIDDEN",
    );
    await expectAppError(
      creator.asUser.mutation(api.nightLists.open, {
        micId: mic,
        date: TONIGHT,
        spots: 3,
        lightMinutes: 1,
        mode: "first_come",
      }),
      "FORBIDDEN",
    );

    // A fan's schedule entry keeps the creator from deleting it; an admin still may.
    const { entryId } = await fan.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await expectAppError(
      creator.asUser.mutation(api.scene.remove, { id: mic }),
      "FORBIDDEN",
      /only an admin can delete it/,
    );
    expect(await t.run(async (ctx) => await ctx.db.get("scheduleEntries", entryId))).not.toBeNull();
    // With the fan's entry gone, the creator's own rows alone do not stop them.
    await fan.asUser.mutation(api.schedule.remove, { entryId });
    await creator.asUser.mutation(api.favorites.add, { sceneItemId: mic });
    await creator.asUser.mutation(api.scene.remove, { id: mic });
    expect(await t.run(async (ctx) => await ctx.db.get("sceneItems", mic))).toBeNull();

    const other = await createSceneItem(t, { ...wednesday, title: "Another", createdBy: creator.userId });
    await fan.asUser.mutation(api.favorites.add, { sceneItemId: other });
    await admin.asUser.mutation(api.scene.remove, { id: other });
    expect(await t.run(async (ctx) => await ctx.db.get("sceneItems", other))).toBeNull();
  });
});

type Actor = "creator" | "a" | "b";
type Step = { kind: "submit" | "approve" | "deny" | "revoke"; who: Actor } | { kind: "probe"; who: Actor | "admin" };

const actor = fc.constantFrom<Actor>("creator", "a", "b");
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("submit" as const, "approve" as const, "deny" as const, "revoke" as const),
    who: actor,
  }),
  fc.record({
    kind: fc.constant("probe" as const),
    who: fc.constantFrom<Actor | "admin">("creator", "a", "b", "admin"),
  }),
);

async function allowed(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (error instanceof ConvexError) return false;
    throw error;
  }
}

describe("host rights under random claims, reviews and revocations", () => {
  test("every caller's edit and host rights match the rule after each step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 12 }), async (steps) => {
        const t = newTest();
        const admin = await createAdmin(t);
        const users: Record<Actor, TestUser> = {
          creator: await createUser(t),
          a: await createUser(t),
          b: await createUser(t),
        };
        const mic = await createSceneItem(t, { ...wednesday, createdBy: users.creator.userId });
        // The model: each actor's latest claim, and its id.
        const claim: Partial<Record<Actor, { id: Id<"micClaims">; status: string }>> = {};
        // Claims each actor filed: the sixth in a day is over the rate limit.
        const filed: Record<Actor, number> = { creator: 0, a: 0, b: 0 };
        const approvedOther = (who: Actor) =>
          (Object.keys(claim) as Actor[]).some((o) => o !== who && claim[o]?.status === "approved");
        for (const step of steps) {
          if (step.kind === "submit") {
            const open = claim[step.who]?.status;
            const id = await users[step.who].asUser
              .mutation(api.claims.submit, { micId: mic })
              .catch((error: unknown) => {
                if (!(error instanceof ConvexError)) throw error;
                return null;
              });
            expect(id !== null, `submit by ${step.who} with a ${open} claim`).toBe(
              open !== "pending" && open !== "approved" && filed[step.who] < 5,
            );
            if (id !== null) {
              claim[step.who] = { id, status: "pending" };
              filed[step.who] += 1;
            }
          } else if (step.kind === "approve" || step.kind === "deny") {
            const c = claim[step.who];
            if (c === undefined) continue;
            const ok = await allowed(() =>
              admin.asUser.mutation(api.claims.review, {
                id: c.id,
                status: step.kind === "approve" ? "approved" : "denied",
              }),
            );
            // One host at a time: approving waits until another approved claim is revoked.
            const expected = c.status === "pending" && (step.kind === "deny" || !approvedOther(step.who));
            expect(ok, `${step.kind} ${step.who}'s ${c.status} claim`).toBe(expected);
            if (ok) c.status = step.kind === "approve" ? "approved" : "denied";
          } else if (step.kind === "revoke") {
            const c = claim[step.who];
            if (c === undefined) continue;
            const ok = await allowed(() => admin.asUser.mutation(api.claims.revoke, { id: c.id }));
            expect(ok, `revoke ${step.who}'s ${c.status} claim`).toBe(c.status === "approved");
            if (ok) c.status = "revoked";
          } else {
            const caller = step.who === "admin" ? admin : users[step.who];
            // Host rights come only from an approved claim or admin rights; edit rights also from creating the mic,
            // until a claim is approved.
            const host = step.who === "admin" || claim[step.who]?.status === "approved";
            const anyApproved = (Object.keys(claim) as Actor[]).some((o) => claim[o]?.status === "approved");
            const editor = host || (step.who === "creator" && !anyApproved);
            const state = await caller.asUser.query(api.claims.ownerState, { micId: mic });
            expect({ who: step.who, edit: state.canManage, host: state.canHost }).toEqual({
              who: step.who,
              edit: editor,
              host,
            });
            expect(
              await allowed(() =>
                caller.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: TONIGHT, confirmed: true }),
              ),
              `${step.who} confirms tonight`,
            ).toBe(host);
            expect(
              await allowed(() =>
                caller.asUser.mutation(api.claims.updateOwnMic, {
                  micId: mic,
                  title: "Edited",
                  dayOfWeek: 3,
                  startTimeLocal: "20:00",
                }),
              ),
              `${step.who} edits the mic`,
            ).toBe(editor);
          }
        }
      }),
      { numRuns: 40, seed: Number(process.env.FUZZ_SEED ?? 20261128), endOnFailure: true },
    );
  });
});
