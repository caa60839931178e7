import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription, waitFor } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const bodies = (messages: { body: string }[] | undefined) => (messages ?? []).map((m) => m.body);

describe("subscriptions", () => {
  test("a subscriber sees every change another client makes, in order", async () => {
    const reader = backend.client();
    const writer = backend.client();
    const sub = new Subscription(reader, api.messages.list, { channel: "lockstep" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");

    // Lockstep: each write waits until the subscriber has seen the previous one,
    // so every intermediate state must be delivered.
    for (let i = 1; i <= 5; i++) {
      await writer.mutation(api.messages.send, { channel: "lockstep", author: "w", body: `m${i}` });
      await sub.waitFor((v) => v.length === i, `message ${i}`);
    }
    expect(sub.values.map(bodies)).toEqual([
      [],
      ["m1"],
      ["m1", "m2"],
      ["m1", "m2", "m3"],
      ["m1", "m2", "m3", "m4"],
      ["m1", "m2", "m3", "m4", "m5"],
    ]);
    expect(sub.errors).toEqual([]);
  });

  test("a burst of writes arrives in commit order, without going back", async () => {
    const reader = backend.client();
    const writer = backend.client();
    const sub = new Subscription(reader, api.messages.list, { channel: "burst" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");

    const expected = Array.from({ length: 20 }, (_, i) => `b${i}`);
    // The client sends mutations in order over one socket; they commit in that order.
    await Promise.all(
      expected.map((body) => writer.mutation(api.messages.send, { channel: "burst", author: "w", body })),
    );
    await sub.waitFor((v) => v.length === expected.length, "all 20 messages");
    expect(bodies(sub.latest)).toEqual(expected);
    // Every delivered state is a prefix of the next one: no reordering, no regression.
    const seen = sub.values.map(bodies);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].length).toBeGreaterThan(seen[i - 1].length);
      expect(seen[i].slice(0, seen[i - 1].length)).toEqual(seen[i - 1]);
    }
  });

  test("a write that leaves the result unchanged sends nothing to the subscriber", async () => {
    const reader = backend.client();
    const writer = backend.client();
    const sub = new Subscription(reader, api.messages.list, { channel: "quiet" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const id = await writer.mutation(api.messages.send, { channel: "quiet", author: "w", body: "first" });
    await sub.waitFor((v) => v.length === 1, "the first message");
    const before = sub.values.length;

    // Same table, same index range, identical content.
    await writer.mutation(api.messages.rewrite, { id });
    // Same table, another channel.
    await writer.mutation(api.messages.send, { channel: "elsewhere", author: "w", body: "x" });
    // Another table.
    await writer.mutation(api.counters.bump, { name: "unrelated" });
    // A real change after them: any update the no-op writes caused would have
    // been delivered before this one.
    await writer.mutation(api.messages.send, { channel: "quiet", author: "w", body: "second" });
    await sub.waitFor((v) => v.length === 2, "the second message");

    expect(sub.values.length).toBe(before + 1);
    expect(bodies(sub.latest)).toEqual(["first", "second"]);
  });

  test("the writer's own subscription already holds its write when the mutation resolves", async () => {
    const client = backend.client();
    const sub = client.onUpdate(api.messages.list, { channel: "own" }, () => {});
    await waitFor(() => sub.getCurrentValue() !== undefined, { message: "the first result" });
    for (let i = 0; i < 5; i++) {
      await client.mutation(api.messages.send, { channel: "own", author: "me", body: `o${i}` });
      // The response is sent before the Transition that contains it, and the
      // client resolves only once it has that Transition.
      expect(bodies(sub.getCurrentValue())).toContain(`o${i}`);
    }
    sub.unsubscribe();
  });

  test("subscribers to the same query and arguments all get the same updates", async () => {
    const writer = backend.client();
    const first = backend.client();
    const subs = [first, first, backend.client(), backend.client()].map(
      (c) => new Subscription(c, api.messages.list, { channel: "shared" }),
    );
    await Promise.all(subs.map((s) => s.waitFor((v) => v.length === 0, "the empty first result")));
    await writer.mutation(api.messages.send, { channel: "shared", author: "w", body: "hello all" });
    for (const s of subs) {
      const value = await s.waitFor((v) => v.length === 1, "the shared message");
      expect(bodies(value)).toEqual(["hello all"]);
    }
  });

  test("a subscriber stops getting updates after unsubscribing, others keep theirs", async () => {
    const reader = backend.client();
    const writer = backend.client();
    const gone = new Subscription(reader, api.messages.list, { channel: "unsub" });
    const stays = new Subscription(reader, api.counters.get, { name: "unsub" });
    await gone.waitFor((v) => v.length === 0, "the empty first result");
    await stays.waitFor((v) => v === null, "no counter yet");
    gone.unsubscribe();
    await writer.mutation(api.messages.send, { channel: "unsub", author: "w", body: "unseen" });
    await writer.mutation(api.counters.bump, { name: "unsub" });
    await stays.waitFor((v) => v === 1, "the counter");
    expect(gone.values.map(bodies)).toEqual([[]]);
  });

  test("deletes and one-shot queries reflect committed state", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "del" });
    const a = await client.mutation(api.messages.send, { channel: "del", author: "w", body: "a" });
    await client.mutation(api.messages.send, { channel: "del", author: "w", body: "b" });
    await sub.waitFor((v) => v.length === 2, "two messages");
    await client.mutation(api.messages.remove, { id: a });
    await sub.waitFor((v) => v.length === 1, "one message left");
    expect(bodies(sub.latest)).toEqual(["b"]);
    expect(bodies(await client.query(api.messages.list, { channel: "del" }))).toEqual(["b"]);
  });
});
