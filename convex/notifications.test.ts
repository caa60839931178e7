import { beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { FAN_OUT_BATCH } from "./model/notificationFanOut";
import { defaultPrefs, notify } from "./model/notifications";
import { PUSHES_PER_HOUR } from "./lib/notificationRules";
import { expectAppError } from "./testing/test.expect";
import {
  comics,
  host,
  listOf,
  mic,
  nyWed,
  NOW,
  openList,
  t,
  TONIGHT,
  useWednesdayNight,
} from "./testing/test.nightLists";
import { createSceneItem, createUser, type TestUser } from "./testing/test.setup";
import { triggers } from "./triggers";

useWednesdayNight();

/** Fake timers too (at the frozen time), so scheduled work at a later time can be run; once per test. */
function fakeClock() {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
}

/** Runs the scheduled work (fan-out batches, list reads); the push action is never queued here. */
async function settle() {
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

async function noticesOf(userId: Id<"users">): Promise<Doc<"notifications">[]> {
  return await t.run(
    async (ctx) =>
      await ctx.db
        .query("notifications")
        .withIndex("by_user", (q) => q.eq("userId", userId))
        .collect(),
  );
}

const prefs = defaultPrefs("America/New_York");

const notice = (eventKey: string) => ({
  kind: "set_feedback" as const,
  eventKey,
  title: "How did it go?",
  body: "Rate your bits",
  url: "/history",
});

describe("claims and reports", () => {
  beforeEach(fakeClock);

  test("a filed claim tells the admins; its decision tells the claimant once, with the mic's page", async () => {
    const admin = await createUser(t, { isAdmin: true });
    const [comic] = await comics(1);
    const other = await createSceneItem(t, { title: "Claimable Mic" });
    const claimId = await comic.asUser.mutation(api.claims.submit, { micId: other });
    const [filed] = await noticesOf(admin.userId);
    expect(filed).toMatchObject({ kind: "admin_queue", title: "New claim to review", url: "/admin" });
    expect(await noticesOf(comic.userId)).toEqual([]);

    await admin.asUser.mutation(api.claims.review, { id: claimId, status: "approved" });
    const inbox = await comic.asUser.query(api.notifications.inbox, {});
    expect(inbox.unread).toBe(1);
    expect(inbox.entries).toMatchObject([
      { kind: "claim_decided", title: "Your claim was approved", url: `/event/${other}`, read: false },
    ]);
    // Revoking later is not a decision on a pending claim: nothing more.
    await admin.asUser.mutation(api.claims.revoke, { id: claimId });
    expect(await noticesOf(comic.userId)).toHaveLength(1);

    await comic.asUser.mutation(api.notifications.markRead, { id: inbox.entries[0]._id });
    expect((await comic.asUser.query(api.notifications.inbox, {})).unread).toBe(0);
    await expectAppError(
      admin.asUser.mutation(api.notifications.markRead, { id: inbox.entries[0]._id }),
      "NOT_FOUND",
      "Notification not found",
    );
  });
});

describe("the inbox", () => {
  beforeEach(fakeClock);

  test("pages the caller's own notices newest first; the unread count follows reads", async () => {
    const [comic, other] = await comics(2);
    await t.run(async (ctx) => {
      for (let i = 1; i <= 5; i++) {
        await notify(ctx, { userId: comic.userId, nowMs: NOW, notice: { ...notice(`n${i}`), title: `Notice ${i}` } });
      }
      await notify(ctx, { userId: other.userId, nowMs: NOW, notice: { ...notice("x"), title: "Someone else's" } });
    });
    const first = await comic.asUser.query(api.notifications.inboxPage, {
      paginationOpts: { numItems: 3, cursor: null },
    });
    expect(first.page.map((n) => n.title)).toEqual(["Notice 5", "Notice 4", "Notice 3"]);
    expect(first.isDone).toBe(false);
    const rest = await comic.asUser.query(api.notifications.inboxPage, {
      paginationOpts: { numItems: 3, cursor: first.continueCursor },
    });
    expect(rest.page.map((n) => n.title)).toEqual(["Notice 2", "Notice 1"]);
    expect(rest.isDone).toBe(true);
    expect(await comic.asUser.query(api.notifications.unreadCount, {})).toBe(5);

    await comic.asUser.mutation(api.notifications.markRead, { id: first.page[0]._id });
    expect(await comic.asUser.query(api.notifications.unreadCount, {})).toBe(4);
    expect(await comic.asUser.mutation(api.notifications.markAllRead, {})).toBe(false);
    expect(await comic.asUser.query(api.notifications.unreadCount, {})).toBe(0);
    expect(await other.asUser.query(api.notifications.unreadCount, {})).toBe(1);
    await expectAppError(
      comic.asUser.query(api.notifications.inboxPage, { paginationOpts: { numItems: 5000, cursor: null } }),
      "INVALID_INPUT",
    );
  });
});

describe("choices", () => {
  test("a topic turned off, or a muted mic, sends nothing; a repeated event is told once", async () => {
    const [comic] = await comics(1);
    const send = (key: string, micId?: Id<"sceneItems">) =>
      t.run(async (ctx) => await notify(ctx, { userId: comic.userId, notice: notice(key), micId, nowMs: NOW }));
    expect(await send("a")).not.toBeNull();
    expect(await send("a")).toBeNull();
    await comic.asUser.mutation(api.notifications.setMicMuted, { micId: mic, muted: true });
    expect(await comic.asUser.query(api.notifications.micMuted, { micId: mic })).toBe(true);
    expect(await send("b", mic)).toBeNull();
    await comic.asUser.mutation(api.notifications.savePreferences, { ...prefs, sets: false });
    expect(await send("c")).toBeNull();
    expect((await noticesOf(comic.userId)).map((n) => n.eventKey)).toEqual(["a"]);
  });

  test("bad choices are refused with a message", async () => {
    const [comic] = await comics(1);
    const save = (p: Partial<typeof prefs>) =>
      comic.asUser.mutation(api.notifications.savePreferences, { ...prefs, ...p });
    await expectAppError(save({ leadMinutes: 7 }), "INVALID_INPUT", "Choose how long before the list.");
    await expectAppError(save({ quietStart: "22:00" }), "INVALID_INPUT", "Quiet hours need a start and an end.");
    await expectAppError(
      save({ quietStart: "25:00", quietEnd: "08:00" }),
      "INVALID_INPUT",
      "Quiet hours must be times like 22:00.",
    );
    await expectAppError(save({ timeZone: "Mars/Olympus" }), "INVALID_INPUT", "Unknown time zone.");
    await save({ quietStart: "22:00", quietEnd: "08:00", timeZone: "Europe/London" });
    expect(await comic.asUser.query(api.notifications.preferences, {})).toMatchObject({
      quietStart: "22:00",
      timeZone: "Europe/London",
    });
  });
});

describe("push", () => {
  const device = (n: number) => ({
    endpoint: `https://fcm.googleapis.com/fcm/send/device-${n}`,
    keys: { p256dh: "BPublicKey", auth: "authSecret" },
  });

  test("without VAPID keys the inbox still fills and no push is queued", async () => {
    const [comic] = await comics(1);
    await comic.asUser.mutation(api.notifications.subscribe, { subscription: device(1) });
    expect(await t.query(api.notifications.pushConfig, {})).toEqual({ publicKey: null });
    await t.run(async (ctx) => await notify(ctx, { userId: comic.userId, notice: notice("x"), nowMs: NOW }));
    expect((await noticesOf(comic.userId))[0].push).toBe("not_configured");
    const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    expect(jobs.filter((j) => j.name.startsWith("push"))).toEqual([]);
  });

  test("with VAPID keys: queued for a device, held in quiet hours, and limited per hour", async () => {
    vi.stubEnv("VAPID_PUBLIC_KEY", "BPublic");
    vi.stubEnv("VAPID_PRIVATE_KEY", "private");
    vi.stubEnv("VAPID_SUBJECT", "mailto:ops@example.com");
    expect(await t.query(api.notifications.pushConfig, {})).toEqual({ publicKey: "BPublic" });
    const [comic, sleeper] = await comics(2);
    const send = (u: TestUser, key: string) =>
      t.run(async (ctx) => await notify(ctx, { userId: u.userId, notice: notice(key), nowMs: Date.now() }));
    await send(comic, "no-device");
    await comic.asUser.mutation(api.notifications.subscribe, { subscription: device(1) });
    for (let i = 0; i <= PUSHES_PER_HOUR; i++) await send(comic, `n${i}`);
    const states = (await noticesOf(comic.userId)).map((n) => n.push);
    expect(states[0]).toBe("no_devices");
    expect(states.filter((s) => s === "queued")).toHaveLength(PUSHES_PER_HOUR);
    expect(states.at(-1)).toBe("rate_limited");
    const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    expect(jobs.filter((j) => j.name.startsWith("push"))).toHaveLength(PUSHES_PER_HOUR);

    // 19:45 in New York is inside 19:00..07:00 quiet hours there.
    await sleeper.asUser.mutation(api.notifications.subscribe, { subscription: device(2) });
    await sleeper.asUser.mutation(api.notifications.savePreferences, {
      ...prefs,
      quietStart: "19:00",
      quietEnd: "07:00",
    });
    await send(sleeper, "late");
    expect((await noticesOf(sleeper.userId)).map((n) => n.push)).toEqual(["quiet_hours"]);
  });

  test("a device moves with its endpoint; a malformed or plain-http one is refused; subscribing is limited", async () => {
    const [a, b] = await comics(2);
    await a.asUser.mutation(api.notifications.subscribe, { subscription: device(1) });
    await b.asUser.mutation(api.notifications.subscribe, { subscription: device(1) });
    expect(await a.asUser.query(api.notifications.deviceSubscribed, { endpoint: device(1).endpoint })).toBe(false);
    expect(await b.asUser.query(api.notifications.deviceSubscribed, { endpoint: device(1).endpoint })).toBe(true);
    await expectAppError(
      a.asUser.mutation(api.notifications.subscribe, {
        subscription: { ...device(3), endpoint: "http://127.0.0.1:8080/x" },
      }),
      "INVALID_INPUT",
      "That push address is not allowed.",
    );
    await expectAppError(
      a.asUser.mutation(api.notifications.subscribe, {
        subscription: { ...device(3), keys: { p256dh: "a b", auth: "x" } },
      }),
      "INVALID_INPUT",
      "That push subscription is malformed.",
    );
    for (let i = 0; i < 9; i++) await a.asUser.mutation(api.notifications.subscribe, { subscription: device(10 + i) });
    await expectAppError(
      a.asUser.mutation(api.notifications.subscribe, { subscription: device(30) }),
      "RATE_LIMITED",
      "Too many notification sign-ups. Please try again in 6 minutes.",
    );
  });
});

describe("the live list", () => {
  beforeEach(fakeClock);

  test("the lottery draw tells each entrant where they landed", async () => {
    const listId = await openList({ spots: 1, waitlistSpots: 1, mode: "lottery", drawAt: nyWed("20:15") });
    const users = await comics(3);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.draw, { listId });
    await settle();
    const bodies = [];
    for (const u of users) {
      const notes = await noticesOf(u.userId);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ kind: "lottery", title: "Wednesday Laughs: the lottery is drawn" });
      bodies.push(notes[0].body);
    }
    expect(bodies.sort()).toEqual(["Not this time.", "You're in. See you on the list.", "You're on the waitlist, #1."]);
  });

  test("on deck and up next but one are told once each, only once the show runs", async () => {
    const listId = await openList({ spots: 4 });
    const users = await comics(4);
    for (const u of users) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await settle();
    for (const u of users) expect(await noticesOf(u.userId)).toEqual([]);
    const order = (await listOf()).list.map((s) => s._id);
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: order[0] });
    await settle();
    expect((await noticesOf(users[0].userId)).map((n) => n.kind)).toEqual([]);
    expect((await noticesOf(users[1].userId)).map((n) => n.kind)).toEqual(["on_deck"]);
    expect((await noticesOf(users[2].userId)).map((n) => n.kind)).toEqual(["up_next"]);
    await host.asUser.mutation(api.nightLists.done, { listId, spotId: order[0], useTimer: false });
    await host.asUser.mutation(api.nightLists.upNow, { listId, spotId: order[1] });
    await settle();
    expect((await noticesOf(users[1].userId)).map((n) => n.kind)).toEqual(["on_deck"]);
    expect((await noticesOf(users[2].userId)).map((n) => n.kind)).toEqual(["up_next", "on_deck"]);
    expect((await noticesOf(users[3].userId)).map((n) => n.kind)).toEqual(["up_next"]);
    expect((await noticesOf(users[2].userId))[1]).toMatchObject({
      title: "You're on deck",
      url: `/event/${mic}`,
    });
  });

  test("a cancelled night tells whoever scheduled the mic; confirming it again tells them it is on", async () => {
    const users = await comics(2);
    for (const u of users) await u.asUser.mutation(api.schedule.add, { sceneItemId: mic });
    const [stranger] = await comics(1);
    await host.asUser.mutation(api.claims.setCancelledDate, { micId: mic, date: TONIGHT, cancelled: true });
    await host.asUser.mutation(api.claims.setConfirmedDate, { micId: mic, date: TONIGHT, confirmed: true });
    await settle();
    for (const u of users) {
      expect((await noticesOf(u.userId)).map((n) => [n.kind, n.title, n.body])).toEqual([
        ["night_cancelled", "Wednesday Laughs is cancelled", "The host cancelled Wed, Nov 25."],
        ["night_confirmed", "Wednesday Laughs is on", "The host confirmed Wed, Nov 25."],
      ]);
    }
    expect(await noticesOf(stranger.userId)).toEqual([]);
  });

  test("an online list opening tells the mic's followers when sign-up opens", async () => {
    const users = await comics(2);
    await users[0].asUser.mutation(api.favorites.add, { sceneItemId: mic });
    await users[1].asUser.mutation(api.schedule.add, { sceneItemId: mic });
    await openList({ signupOpensAt: nyWed("21:00") });
    // Nothing before the minute it opens.
    for (const u of users) expect(await noticesOf(u.userId)).toEqual([]);
    await settle();
    for (const u of users) {
      expect((await noticesOf(u.userId)).map((n) => n.title)).toEqual(["Wednesday Laughs: the list is open"]);
    }
    expect(Date.now()).toBeGreaterThanOrEqual(nyWed("21:00"));
  });
});

describe("list openings at scale", () => {
  test("an alarm fans out to every follower in batches, each told once at the lead time they chose", async () => {
    // List at 21:00 tonight: at 19:45 the 60-minute lead (20:00) is the next to fire.
    const late = await createSceneItem(t, {
      title: "Late List",
      dayOfWeek: 3,
      startTimeLocal: "21:30",
      listTimeLocal: "21:00",
    });
    const alarm = await t.run(
      async (ctx) =>
        await ctx.db
          .query("listAlarms")
          .withIndex("by_micId", (q) => q.eq("micId", late))
          .unique(),
    );
    expect(alarm).toMatchObject({ listAt: nyWed("21:00"), fireAt: nyWed("20:00") });

    const FOLLOWERS = FAN_OUT_BATCH * 2 + 50;
    // Through the triggers, as the app writes them: they keep the mic's follower rows.
    const followers = await t.run(async (raw) => {
      const ctx = triggers.wrapDB(raw);
      const ids: Id<"users">[] = [];
      for (let i = 0; i < FOLLOWERS; i++) {
        const userId = await ctx.db.insert("users", { name: `Fan ${i}` });
        ids.push(userId);
        await ctx.db.insert("favorites", { userId, sceneItemId: late });
        // A third of them also scheduled it: still one notice each.
        if (i % 3 === 0) await ctx.db.insert("scheduleEntries", { userId, sceneItemId: late, addedAt: NOW });
        // A tenth want 30 minutes' notice instead of 60.
        if (i % 10 === 0) {
          await ctx.db.insert("notificationPrefs", { userId, ...prefs, quietStart: undefined, quietEnd: undefined });
        }
      }
      return ids;
    });
    const wants60 = followers.filter((_, i) => i % 10 !== 0);
    await t.run(async (raw) => {
      const ctx = triggers.wrapDB(raw);
      for (const userId of wants60) {
        await ctx.db.insert("notificationPrefs", {
          userId,
          ...prefs,
          leadMinutes: 60,
          quietStart: undefined,
          quietEnd: undefined,
        });
      }
    });

    fakeClock();
    vi.setSystemTime(nyWed("20:00"));
    expect(await t.mutation(internal.notifications.fireAlarms, {})).toBe(1);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const all = await t.run(async (ctx) => await ctx.db.query("notifications").collect());
    expect(all).toHaveLength(wants60.length);
    expect(new Set(all.map((n) => n.userId)).size).toBe(wants60.length);
    expect(all[0]).toMatchObject({ kind: "list_open", title: "Late List: list in 60 min", url: `/event/${late}` });
    const batches = await t.run(async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).filter((j) => j.name.includes("fanOut")),
    );
    // The 225 who chose 60 minutes, in 3 batches of at most 100 (one follower row each, however they follow).
    expect(batches).toHaveLength(3);

    // At 20:30 the 30-minute lead fires for the others; nobody hears twice.
    vi.setSystemTime(nyWed("20:30"));
    expect(await t.mutation(internal.notifications.fireAlarms, {})).toBe(1);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const after = await t.run(async (ctx) => await ctx.db.query("notifications").collect());
    expect(after).toHaveLength(FOLLOWERS);
    expect(new Set(after.map((n) => n.userId)).size).toBe(FOLLOWERS);
    // Tonight's alarm is spent after its 15-minute lead; next Wednesday's is set.
    vi.setSystemTime(nyWed("20:45"));
    await t.mutation(internal.notifications.fireAlarms, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const next = await t.run(
      async (ctx) =>
        await ctx.db
          .query("listAlarms")
          .withIndex("by_micId", (q) => q.eq("micId", late))
          .unique(),
    );
    expect(next?.listAt).toBe(nyWed("21:00") + 7 * 24 * 60 * 60_000);
    expect((await t.run(async (ctx) => await ctx.db.query("notifications").collect())).length).toBe(FOLLOWERS);
  }, 60_000);
});
