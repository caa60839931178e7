import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./fixture/convex/_generated/api";
import { type Backend, startBackend, Subscription } from "./harness";

// Convex deletes finished `_scheduled_functions` rows a week after they finish
// (SCHEDULED_JOB_RETENTION in knobs.rs); the same knob, in seconds, shortens it here.
let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({ env: { SCHEDULED_JOB_RETENTION: "2" } });
});

afterAll(async () => {
  await backend?.dispose();
});

describe("finished scheduled functions are deleted after the retention", () => {
  test("a succeeded and a canceled job go, a pending one stays", async () => {
    const client = backend.client();
    const done = await client.mutation(api.messages.sendLater, { channel: "kept", body: "ran", delayMs: 0 });
    const canceled = await client.mutation(api.messages.sendLater, { channel: "kept", body: "no", delayMs: 60_000 });
    await client.mutation(api.messages.cancelScheduled, { id: canceled });
    const pending = await client.mutation(api.messages.sendAt, {
      channel: "kept",
      body: "later",
      at: Date.now() + 3_600_000,
    });
    const doneState = new Subscription(client, api.messages.scheduledState, { id: done });
    await doneState.waitFor((s) => s === "success", "the job to succeed");
    await doneState.waitFor((s) => s === null, "the succeeded job's row to be deleted");
    const canceledState = new Subscription(client, api.messages.scheduledState, { id: canceled });
    await canceledState.waitFor((s) => s === null, "the canceled job's row to be deleted");
    expect(await client.query(api.messages.scheduledState, { id: pending })).toBe("pending");
    // The job's own write stays: only the scheduler's bookkeeping goes.
    expect((await client.query(api.messages.list, { channel: "kept" })).map((m) => m.body)).toEqual(["ran"]);
  });

  test("a job that finished before a restart is deleted after it", async () => {
    const http = backend.httpClient();
    const id = await http.mutation(api.messages.sendLater, { channel: "restart", body: "ran", delayMs: 0 });
    const client = backend.client();
    const state = new Subscription(client, api.messages.scheduledState, { id });
    await state.waitFor((s) => s === "success", "the job to succeed");
    await backend.kill();
    await backend.restart();
    const after = new Subscription(backend.client(), api.messages.scheduledState, { id });
    await after.waitFor((s) => s === null, "the row to be deleted after the restart");
  }, 60_000);
});
