/**
 * The live list under a rush, through real clients: the local backend runs the
 * app's own convex/ folder, comedians sign up through @convex-dev/auth's
 * password flow and call nightLists:signUp over the WebSocket sync protocol,
 * all in the same moment, while a room screen watches the list.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ConvexClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { repoRoot, startBackend, Subscription, type Backend } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ functionsDir: path.join(repoRoot, "convex") });
  // More accounts sign up here in a minute than the site-wide sign-up limit allows a real deployment.
  await backend.cli(["env", "set", "SIGN_UP_LIMIT_PER_MINUTE", "1000"]);
  // Its comedians sign up to the list minutes after making their accounts.
  await backend.cli(["env", "set", "LIST_MIN_ACCOUNT_AGE_HOURS", "0"]);
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
});

async function signUpComedian(email: string): Promise<ConvexClient> {
  const result = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    // A stage name: a comedian without one is asked for it before a list sign-up.
    params: { email, password: "punchline-42", flow: "signUp", name: `Comic ${email}` },
  })) as { tokens?: { token: string } | null };
  const token = result.tokens?.token;
  if (!token) throw new Error(`sign-up of ${email} issued no token`);
  const client = backend.client();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no auth verdict in 30 s")), 30_000);
    client.setAuth(
      async () => token,
      (ok) => {
        clearTimeout(timer);
        if (ok) resolve();
        else reject(new Error("token refused"));
      },
    );
  });
  return client;
}

async function run<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await backend.cli(["run", name, JSON.stringify(args)]);
  if (result.code !== 0) throw new Error(`run ${name} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as T;
}

describe("the live list through real clients", () => {
  test("100 comedians sign up in the same second for 20 spots: 20 get spots, 80 are waitlisted in order, nobody twice", async () => {
    const host = await signUpComedian("list-host@example.com");
    await run("admin:setAdmin", { email: "list-host@example.com", isAdmin: true });
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const micId = await run<Id<"sceneItems">>("fixtures:insertSceneItem", {
      title: "Rush Hour Mic",
      venueName: "Rush Room",
      city: "New York",
      type: "open_mic",
      latitude: 40.7291,
      longitude: -73.9965,
      dayOfWeek: now.getUTCDay(),
      startTimeLocal: "23:59",
      recurrence: "weekly",
      timeZone: "UTC",
      performanceMinutes: 5,
    });
    const listId = await host.mutation(api.nightLists.open, {
      micId,
      date: today,
      spots: 20,
      waitlistSpots: 100,
      lightMinutes: 1,
      mode: "first_come",
      signupOpensAt: Date.now() - 60_000,
    });
    // The room screen: an anonymous client watching the list.
    const screen = new Subscription(backend.client(), api.nightLists.current, { micId });

    const comedians: ConvexClient[] = [];
    for (let i = 0; i < 100; i += 10) {
      comedians.push(
        ...(await Promise.all(Array.from({ length: 10 }, (_, j) => signUpComedian(`rush-${i + j}@example.com`)))),
      );
    }

    const results = await Promise.all(comedians.map((client) => client.mutation(api.nightLists.signUp, { listId })));
    expect(new Set(results.map((r) => r.spotId)).size).toBe(100);

    const final = await screen.waitFor(
      (v) => v.list !== null && v.list.taken === 20 && v.list.waitlist.length === 80,
      "the full list on the room screen",
    );
    const list = final.list!;
    const everyone = [...list.list, ...list.waitlist];
    expect(new Set(everyone.map((s) => s.name)).size).toBe(100);
    expect(new Set(everyone.map((s) => s._id))).toEqual(new Set(results.map((r) => r.spotId)));
    expect(list.list.map((s) => s.place)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(list.waitlist.map((s) => s.place)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));

    // "In order": the list then the waitlist is the order the sign-ups
    // arrived in (creation time).
    const snapshot = JSON.parse((await backend.cli(["export"])).stdout) as {
      tables: Record<string, Array<Record<string, unknown>>>;
    };
    const created = new Map(
      (snapshot.tables.listSpots ?? [])
        .filter((s) => s.listId === listId)
        .map((s) => [s._id as string, s._creationTime as number]),
    );
    expect(created.size).toBe(100);
    const times = everyone.map((s) => created.get(s._id)!);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // A second simultaneous round changes nothing: each comedian is already on.
    const again = await Promise.allSettled(
      comedians.slice(0, 10).map((client) => client.mutation(api.nightLists.signUp, { listId })),
    );
    for (const outcome of again) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as ConvexError<{ code: string; message: string }>;
      expect(error).toBeInstanceOf(ConvexError);
      expect(error.data).toMatchObject({ code: "ALREADY_EXISTS", message: "You're already on tonight's list." });
    }
    const after = await host.query(api.nightLists.current, { micId });
    expect(after.list!.taken).toBe(20);
    expect(after.list!.waitlist).toHaveLength(80);
    screen.unsubscribe();
  }, 300_000);
});
