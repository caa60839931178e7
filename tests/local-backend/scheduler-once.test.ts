/**
 * Scheduled functions run exactly once (issue 14 item 2), as Convex's
 * scheduled job executor runs them: a mutation and its job's `success` commit
 * together, and an action that was running when the backend died is failed on
 * restart ("Transient error while executing action"), never run again.
 */
import fs from "node:fs";
import path from "node:path";
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scheduled functions run exactly once across kill -9", () => {
  test("a scheduled mutation's writes and its job's success are one log entry: a crash right after it never re-runs it", async () => {
    const channel = "once-mutation";
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const jobId = await client.mutation(api.messages.sendLater, { channel, body: "exactly once", delayMs: 0 });
    await sub.waitFor((v) => v.length === 1, "the scheduled message");
    await new Subscription(client, api.messages.scheduledState, { id: jobId }).waitFor(
      (s) => s === "success",
      "the job's success",
    );
    await backend.kill();

    // Cut the log right after the commit that inserted the message: the data
    // directory as a kill -9 at that instant leaves it.
    const logPath = path.join(backend.dataDir, "log.jsonl");
    const lines = fs
      .readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => l.length > 0);
    const at = lines.findIndex((line) => {
      const entry = JSON.parse(line) as { w: [string, Record<string, unknown> | null][] };
      return entry.w.some(([, doc]) => doc?.channel === channel && doc?.body === "exactly once");
    });
    expect(at, "the message's commit is in the log").toBeGreaterThanOrEqual(0);
    const entry = JSON.parse(lines[at]) as { w: [string, Record<string, any> | null][] };
    // The same entry finishes the job.
    expect.soft(entry.w.find(([id]) => id === jobId)?.[1]?.state).toEqual({ kind: "success" });
    fs.writeFileSync(logPath, lines.slice(0, at + 1).join("\n") + "\n");

    await backend.start();
    const http = backend.httpClient();
    expect(await http.query(api.messages.scheduledState, { id: jobId })).toBe("success");
    await sleep(1500);
    const after = await http.query(api.messages.list, { channel });
    expect(after.map((m) => m.body)).toEqual(["exactly once"]);
  });

  test("an action running at kill -9 is marked failed on restart and not run again", async () => {
    const channel = "once-action";
    const client = backend.client();
    const sub = new Subscription(client, api.messages.list, { channel });
    await sub.waitFor((v) => v.length === 0, "the empty first result");
    const jobId = await client.mutation(api.messages.runSlowActionLater, { channel, ms: 60_000 });
    await sub.waitFor((v) => v.length === 1, "the action's first write");
    expect(await client.query(api.messages.scheduledState, { id: jobId })).toBe("inProgress");
    await backend.kill();

    await backend.start();
    const http = backend.httpClient();
    const state = new Subscription(backend.client(), api.messages.scheduledJob, { id: jobId });
    const failed = await state.waitFor((s) => s?.kind === "failed", "the interrupted action's job to fail");
    expect(failed).toEqual({ kind: "failed", error: "Transient error while executing action" });
    // Long enough for a re-run to have written "started" again.
    await sleep(2000);
    const after = await http.query(api.messages.list, { channel });
    expect(after.map((m) => m.body)).toEqual(["started"]);
    for (const s of state.values) expect(s?.kind).not.toBe("pending");
  });
});
