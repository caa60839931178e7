import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import type { Doc } from "./fixture/convex/_generated/dataModel";
import { type Backend, startBackend, Subscription, waitFor } from "./harness";
import { backendStats } from "./rawClient";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

const bodies = (messages: Doc<"messages">[] | undefined) => (messages ?? []).map((m) => m.body);

describe("durability across kill -9", () => {
  test("every acknowledged write survives, and clients resume their subscriptions by themselves", async () => {
    const channel = "durable";
    const subscriber = backend.client();
    const wsWriter = backend.client();
    const sub = new Subscription(subscriber, api.messages.list, { channel });
    const counterSub = new Subscription(subscriber, api.counters.get, { name: "durable" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");

    // Several writers over HTTP, each sending one mutation at a time: a write
    // counts as acknowledged only once its response arrived.
    const acknowledged: string[] = [];
    const failures: unknown[] = [];
    let stop = false;
    const writer = async (name: string) => {
      const http = backend.httpClient();
      for (let i = 0; !stop; i++) {
        const body = `${name}-${i}`;
        try {
          await http.mutation(api.messages.send, { channel, author: name, body });
          acknowledged.push(body);
        } catch (error) {
          failures.push(error);
          return;
        }
      }
    };
    const writers = ["a", "b", "c"].map(writer);

    await waitFor(() => acknowledged.length >= 60, { message: "60 acknowledged writes", timeoutMs: 60_000 });
    // A snapshot the subscriber saw before the crash, to compare ids and times.
    const seenBefore = await sub.waitFor((v) => v.length >= 30, "30 messages on the subscriber");
    await backend.kill();
    stop = true;
    await Promise.all(writers);
    expect(failures.length, "each writer saw its in-flight request fail").toBe(3);
    const acknowledgedAtKill = [...acknowledged];

    await backend.restart();

    // Every acknowledged write is there exactly once; nothing else appeared.
    const http = backend.httpClient();
    const after = await http.query(api.messages.list, { channel });
    const afterBodies = bodies(after);
    for (const body of acknowledgedAtKill) {
      expect(
        afterBodies.filter((b) => b === body),
        `${body} present exactly once`,
      ).toHaveLength(1);
    }
    expect(new Set(afterBodies).size).toBe(afterBodies.length);
    // Unacknowledged writes (at most one per writer) may or may not have landed.
    expect(afterBodies.length - acknowledgedAtKill.length).toBeLessThanOrEqual(3);
    // Each writer's messages are in the order it sent them.
    for (const name of ["a", "b", "c"]) {
      const own = afterBodies.filter((b) => b.startsWith(`${name}-`));
      expect(own).toEqual(own.map((_, i) => `${name}-${i}`));
    }
    // Documents keep their exact _id and _creationTime.
    const byId = new Map(after.map((doc) => [doc._id, doc]));
    for (const doc of seenBefore) {
      expect(byId.get(doc._id), `document ${doc._id}`).toEqual(doc);
    }

    // Clients created before the crash reconnect on their own: the mutation
    // below is queued until the socket is back, and the subscription fires
    // with the restored data plus the new write.
    await wsWriter.mutation(api.messages.send, { channel, author: "ws", body: "after restart" });
    const resumed = await sub.waitFor(
      (v) => bodies(v).includes("after restart"),
      "the subscription to resume with the new write",
      60_000,
    );
    expect(bodies(resumed)).toEqual([...afterBodies, "after restart"]);
    await wsWriter.mutation(api.counters.bump, { name: "durable" });
    await counterSub.waitFor((v) => v === 1, "the second subscription to resume too");
    expect(sub.errors).toEqual([]);
  }, 180_000);

  test("writes in flight over the WebSocket during a crash are not duplicated when acknowledged", async () => {
    const channel = "ws-stream";
    const writer = backend.client();
    const acknowledged: string[] = [];
    // Fire a stream of mutations without waiting, kill the backend in the middle.
    const pending = Array.from({ length: 200 }, (_, i) => {
      const body = `s${i}`;
      return writer.mutation(api.messages.send, { channel, author: "ws", body }).then(
        () => acknowledged.push(body),
        () => undefined,
      );
    });
    await waitFor(() => acknowledged.length >= 20, { message: "20 acknowledged writes", timeoutMs: 60_000 });
    await backend.kill();
    const acknowledgedAtKill = [...acknowledged];
    await backend.restart();
    // The client re-sends what was not acknowledged; everything settles.
    await Promise.all(pending);

    const after = bodies(await backend.httpClient().query(api.messages.list, { channel }));
    for (const body of acknowledgedAtKill) expect(after, `${body} survived`).toContain(body);
    for (const body of acknowledged) expect(after, `${body} is stored`).toContain(body);
    expect(acknowledged).toHaveLength(200);
    // Acknowledged before the crash means written exactly once.
    for (const body of acknowledgedAtKill) expect(after.filter((b) => b === body)).toHaveLength(1);
  }, 180_000);

  test("concurrent commits share the data log's fsyncs, and every acknowledged one survives kill -9", async () => {
    const channel = "grouped";
    const before = await backendStats(backend);
    // 80 clients send at once: their commits land while earlier fsyncs run (group commit).
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const body = `g${i}`;
        await backend.httpClient().mutation(api.messages.send, { channel, author: "g", body });
        acknowledged.push(body);
      }),
    );
    const after = await backendStats(backend);
    const commits = after.commits - before.commits;
    const fsyncs = after.storage.logFsyncs - before.storage.logFsyncs;
    expect(commits).toBeGreaterThanOrEqual(80);
    expect(fsyncs).toBeGreaterThan(0);
    expect(fsyncs, `${fsyncs} fsyncs for ${commits} commits`).toBeLessThan(commits);
    // The figures the list-drop bench splits a sign-up's time with.
    expect(after.httpMutations.answered - before.httpMutations.answered).toBe(80);
    expect(after.httpMutations.totalMs).toBeGreaterThan(before.httpMutations.totalMs);
    const waited = after.logWaits.mutations - before.logWaits.mutations;
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(commits);
    await backend.kill();
    await backend.restart();
    const stored = bodies(await backend.httpClient().query(api.messages.list, { channel }));
    expect(stored.sort()).toEqual(acknowledged.sort());
  }, 120_000);

  test("a graceful stop and start keeps everything too", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.messages.send, { channel: "graceful", author: "x", body: "kept" });
    // SIGTERM alone stops it (no SIGKILL fallback needed).
    expect(await backend.stop()).toBe("graceful");
    expect(backend.running).toBe(false);
    await backend.start();
    const after = await backend.httpClient().query(api.messages.list, { channel: "graceful" });
    expect(after.map((m) => m._id)).toEqual([id]);
  }, 120_000);
});
