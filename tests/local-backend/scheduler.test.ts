import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription } from "./harness";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});

afterAll(async () => {
  await backend?.dispose();
});

describe("scheduled functions and crons", () => {
  test("a function scheduled with runAfter runs on the clock and its write reaches subscribers", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "scheduled" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const jobId = await client.mutation(api.messages.sendLater, { channel: "scheduled", body: "later", delayMs: 1000 });
    const state = new Subscription(client, api.messages.scheduledState, { id: jobId });
    const value = await sub.waitFor((v) => v.length === 1, "the scheduled message");
    expect(value[0]).toMatchObject({ author: "scheduler", body: "later" });
    await state.waitFor((s) => s === "success", "the job to be marked a success");
    // Every state the job went through is a real one, ending in success.
    for (const s of state.values) expect(["pending", "inProgress", "success"]).toContain(s);
  });

  test("runAfter(0) runs right after the scheduling mutation commits", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "now" });
    await client.mutation(api.messages.sendLater, { channel: "now", body: "asap", delayMs: 0 });
    const value = await sub.waitFor((v) => v.length === 1, "the message scheduled for now");
    expect(value[0].body).toBe("asap");
  });

  test("runAt fires at its time; a canceled job never runs", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "at" });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const now = Date.now();
    const canceled = await client.mutation(api.messages.sendAt, { channel: "at", body: "canceled", at: now + 3000 });
    await client.mutation(api.messages.cancelScheduled, { id: canceled });
    await client.mutation(api.messages.sendAt, { channel: "at", body: "kept", at: now + 4000 });
    // The kept job is due after the canceled one, so once it ran the canceled
    // one would have run too.
    const value = await sub.waitFor((v) => v.length >= 1, "the job scheduled with runAt");
    expect(value.map((m) => m.body)).toEqual(["kept"]);
    expect(Date.now()).toBeGreaterThanOrEqual(now + 4000);
    expect(await client.query(api.messages.scheduledState, { id: canceled })).toBe("canceled");
  });

  test("a cron job runs on its interval while the backend runs", async () => {
    const client = backend.client();
    const sub = new Subscription(client, api.counters.get, { name: "cron" });
    const first = await sub.waitFor((v) => v !== null && v >= 1, "the first cron run");
    await sub.waitFor((v) => v !== null && v >= first! + 2, "two more cron runs");
    // The count only ever goes up: runs commit one after another.
    const runs = sub.values.filter((v): v is number => v !== null);
    for (let i = 1; i < runs.length; i++) expect(runs[i]).toBeGreaterThan(runs[i - 1]);
  });

  test("a pending scheduled function survives kill -9 and runs after the restart", async () => {
    const http = backend.httpClient();
    const jobId = await http.mutation(api.messages.sendLater, {
      channel: "survivor",
      body: "scheduled before the crash",
      delayMs: 3000,
    });
    expect(["pending", "inProgress", "success"]).toContain(
      await http.query(api.messages.scheduledState, { id: jobId }),
    );
    await backend.kill();
    await backend.restart();
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel: "survivor" });
    const value = await sub.waitFor((v) => v.length >= 1, "the scheduled message after restart", 60_000);
    expect(value.map((m) => m.body)).toEqual(["scheduled before the crash"]);
    const state = new Subscription(client, api.messages.scheduledState, { id: jobId });
    await state.waitFor((s) => s === "success", "the job to be a success");
  }, 150_000);
});
