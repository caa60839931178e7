import { beforeEach, describe, expect, test, vi } from "vitest";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import crons from "./crons";
import { UNATTACHED_UPLOAD_GRACE_MS } from "./storage";
import { createUser, newTest, type TestBackend } from "./testing/test.setup";
import { useFrozenClock } from "./testing/test.clock";

let t: TestBackend;

useFrozenClock(Date.parse("2026-11-01T12:00:00Z"));
beforeEach(() => {
  t = newTest();
});

async function upload(text: string): Promise<Id<"_storage">> {
  return await t.run(async (ctx) => await ctx.storage.store(new Blob([text], { type: "image/png" })));
}

async function exists(id: Id<"_storage">): Promise<boolean> {
  return await t.run(async (ctx) => (await ctx.db.system.get("_storage", id)) !== null);
}

describe("storage:deleteUnattachedUploads", () => {
  test("deletes old uploads no profile uses; keeps photos and recent uploads", async () => {
    const photo = await upload("photo");
    const abandoned = await upload("abandoned");
    await createUser(t, { profile: { photoStorageId: photo } });
    vi.setSystemTime(Date.now() + UNATTACHED_UPLOAD_GRACE_MS + 1000);
    const recent = await upload("recent");

    const result = await t.mutation(internal.storage.deleteUnattachedUploads, {});
    expect(result).toEqual({ checked: 2, deleted: 1, more: false });
    expect(await exists(photo)).toBe(true);
    expect(await exists(abandoned)).toBe(false);
    expect(await exists(recent)).toBe(true);
  });

  test("walks many files in batches, rescheduling itself", async () => {
    for (let i = 0; i < 150; i++) await upload(`file ${i}`);
    vi.setSystemTime(Date.now() + UNATTACHED_UPLOAD_GRACE_MS + 1000);
    const first = await t.mutation(internal.storage.deleteUnattachedUploads, {});
    expect(first).toEqual({ checked: 100, deleted: 100, more: true });
    // The next batch is scheduled with the cursor: run it as the scheduler would.
    const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    expect(jobs).toHaveLength(1);
    expect(jobs[0].name).toBe("storage:deleteUnattachedUploads");
    const second = await t.mutation(internal.storage.deleteUnattachedUploads, jobs[0].args[0] as { cursor: string });
    expect(second).toEqual({ checked: 50, deleted: 50, more: false });
    const left = await t.run(async (ctx) => (await ctx.db.system.query("_storage").collect()).length);
    expect(left).toBe(0);
  });

  test("is a cron job", () => {
    const jobs = (crons as unknown as { crons: Record<string, { name: string }> }).crons;
    expect(Object.values(jobs).some((job) => job.name === "storage:deleteUnattachedUploads")).toBe(true);
  });
});
