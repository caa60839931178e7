/**
 * A commit the data log could not take (a full disk, a failed fsync) is never
 * acknowledged: its caller hears the cause, every later mutation (a client's,
 * a scheduled function's, a component's) is refused before it begins and
 * leaves nothing behind, and a restart shows exactly what was acknowledged.
 * A failed write comes before the commit is applied in memory, so its writes
 * are seen by no query and no subscription, and reads go on. A failed fsync
 * (group commit: fsyncs run after the commits they cover are applied) refuses
 * every answer that waits for the log (Engine.durable: mutation results, HTTP
 * queries, Transitions) until a restart.
 * The engine runs in this process, where the faults are injected into
 * `fs.writeSync` / `fs.fsync` for the one commit that carries a marker.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Engine } from "../../local-backend/src/engine/engine";
import { fixtureDir, repoRoot, tempDir } from "./harness";

const admin = { kind: "admin" } as const;
const MARKER = "FAILED-COMMIT";
/** What a failed commit's caller must not hear instead of the cause (convex-test's rollback after a commit). */
const MASKED = /already committed or rolled back/;

const dirs: string[] = [];
const engines: Engine[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const engine of engines.splice(0)) if (!engine.closed) engine.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(
  dataDir: string,
  functionsDir = fixtureDir,
  startBackground = false,
  errors: string[] = [],
): Promise<Engine> {
  const engine = new Engine({
    functionsDir,
    dataDir,
    apiUrl: "http://127.0.0.1:1",
    siteUrl: "http://127.0.0.1:2",
    log: () => {},
    errorLog: (line: string) => errors.push(line),
  });
  engines.push(engine);
  await engine.init({ startBackground });
  return engine;
}

async function dataDir(): Promise<string> {
  const dir = await tempDir("stagetime-lb-commit-faults-");
  dirs.push(dir);
  return path.join(dir, "data");
}

/**
 * The next log write or fsync of a commit carrying `marker` fails as a full
 * disk (or a failing device) does; `skip` marked writes go through first (the
 * first lines of a commit logged as several).
 */
function failMarkedCommit(how: "write" | "fsync", marker = MARKER, skip = 0): void {
  const realWrite = fs.writeSync.bind(fs);
  const realFsync = fs.fsync.bind(fs);
  let marked = false;
  let failed = false;
  let seen = 0;
  vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, buffer: Buffer, ...rest: unknown[]) => {
    if (!failed && Buffer.isBuffer(buffer) && buffer.includes(marker) && seen++ >= skip) {
      if (how === "write") {
        failed = true;
        realWrite(fd, buffer, 0, 20);
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      marked = true;
    }
    return (realWrite as (...args: unknown[]) => number)(fd, buffer, ...rest);
  }) as unknown as typeof fs.writeSync);
  vi.spyOn(fs, "fsync").mockImplementation(((fd: number, done: (error: Error | null) => void) => {
    if (marked && !failed) {
      failed = true;
      done(Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" }));
      return;
    }
    realFsync(fd, done);
  }) as typeof fs.fsync);
}

const bodies = async (engine: Engine, channel = "c") =>
  ((await engine.query("messages:list", { channel }, admin)) as { body: string }[]).map((m) => m.body);
const send = (engine: Engine, body: string, channel = "c") =>
  engine.mutation("messages:send", { channel, author: "a", body }, admin);

describe("a commit the data log refuses", () => {
  test.each([
    ["write", /ENOSPC/],
    ["fsync", /EIO/],
  ] as const)(
    "(a failed %s) is answered to no one, refuses later writes, and a restart shows what was acknowledged",
    async (how, cause) => {
      const dir = await dataDir();
      let engine = await start(dir);
      await send(engine, "acknowledged");
      const heard: string[][] = [];
      engine.onCommit((tables) => heard.push([...tables]));

      failMarkedCommit(how);
      const failed = await send(engine, MARKER).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failed).toMatch(cause);
      expect(failed).toMatch(/data log/);
      expect(failed).not.toMatch(MASKED);
      vi.restoreAllMocks();
      if (how === "write") {
        // Not visible to a query, and no subscription heard of it.
        expect(await bodies(engine)).toEqual(["acknowledged"]);
        expect(heard).toEqual([]);
      } else {
        // Applied in memory before its fsync failed: no answer that waits for the log goes out.
        await expect(engine.durable()).rejects.toThrow(cause);
      }

      // Later writes are refused before they begin, with the cause; they are not visible either.
      const refused = await send(engine, "C").then(
        () => null,
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/refused until the backend restarts/);
      expect(refused).toMatch(cause);
      expect(refused).not.toMatch(MASKED);
      await expect(engine.runAny("counters:bumpInternal", { name: "x", by: 1 })).rejects.toThrow(/refused/);
      await expect(engine.importSnapshot({ tables: {} })).rejects.toThrow(/refused/);
      // Reads go on (no transaction was left holding the lock).
      expect(await bodies(engine)).toEqual(how === "write" ? ["acknowledged"] : ["acknowledged", MARKER]);
      expect(await engine.query("counters:get", { name: "x" }, admin)).toBe(null);
      expect(heard.length).toBe(how === "write" ? 0 : 1);
      engine.close();

      engine = await start(dir);
      expect(await bodies(engine)).toEqual(["acknowledged"]);
      await send(engine, "after restart");
      expect(await bodies(engine)).toEqual(["acknowledged", "after restart"]);
    },
  );

  test("a mutation is answered only once an fsync that began after its commit finished (group commit)", async () => {
    const engine = await start(await dataDir());
    const held: Array<() => void> = [];
    const realFsync = fs.fsync.bind(fs);
    vi.spyOn(fs, "fsync").mockImplementation(((fd: number, done: (error: Error | null) => void) => {
      held.push(() => realFsync(fd, done));
    }) as typeof fs.fsync);
    let answered = false;
    const sent = send(engine, "held").then(() => (answered = true));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // Applied in memory (this process's query sees it), not answered while its fsync runs.
    expect(await bodies(engine)).toEqual(["held"]);
    expect(answered).toBe(false);
    held.shift()!();
    await sent;
    vi.restoreAllMocks();
    expect(engine.durable()).toBeNull();
  });

  test("a component's writes (rate limiter, sharded counter) commit with the app's or not at all", async () => {
    const functionsDir = path.join(repoRoot, "tests/local-backend/componentFixture/convex");
    const dir = await dataDir();
    let engine = await start(dir, functionsDir);
    await engine.mutation("notes:send", { author: "ana", body: "one" }, admin);
    const before = { notes: 1, counted: 1, appRateLimits: 0 };
    expect(await engine.query("notes:stats", {}, admin)).toEqual(before);

    failMarkedCommit("write");
    await expect(engine.mutation("notes:send", { author: "ana", body: MARKER }, admin)).rejects.toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(await engine.query("notes:stats", {}, admin)).toEqual(before);
    await expect(engine.mutation("notes:send", { author: "ana", body: "three" }, admin)).rejects.toThrow(/refused/);
    expect(await engine.query("notes:stats", {}, admin)).toEqual(before);
    engine.close();

    // Only one of ana's 3 notes an hour was used: two more go through after the restart, the next is limited.
    engine = await start(dir, functionsDir);
    expect(await engine.query("notes:stats", {}, admin)).toEqual(before);
    await engine.mutation("notes:send", { author: "ana", body: "two" }, admin);
    await engine.mutation("notes:send", { author: "ana", body: "three" }, admin);
    await expect(engine.mutation("notes:send", { author: "ana", body: "four" }, admin)).rejects.toThrow(/RateLimited/);
    expect(await engine.query("notes:stats", {}, admin)).toEqual({ notes: 3, counted: 3, appRateLimits: 0 });
  });

  test("a scheduled mutation whose commit fails stays pending, is not visible, and runs after the restart", async () => {
    const dir = await dataDir();
    let engine = await start(dir);
    const at = Date.now() + 300;
    const { value: jobId } = await engine.mutation("messages:sendAt", { channel: "s", body: MARKER, at }, admin);
    failMarkedCommit("write");
    const writeSync = vi.mocked(fs.writeSync);
    await vi.waitFor(() => expect(writeSync.mock.calls.some(([, b]) => String(b).includes(MARKER))).toBe(true), {
      timeout: 10_000,
    });
    vi.restoreAllMocks();
    expect(await bodies(engine, "s")).toEqual([]);
    expect(await engine.query("messages:scheduledState", { id: jobId }, admin)).toBe("pending");
    engine.close();

    engine = await start(dir, fixtureDir, true);
    await vi.waitFor(async () => expect(await bodies(engine, "s")).toEqual([MARKER]), { timeout: 10_000 });
    expect(await engine.query("messages:scheduledState", { id: jobId }, admin)).toBe("success");
  });

  test("an import whose log write fails part-way (its second line) leaves the database as it was", async () => {
    const source = await start(await dataDir());
    await source.mutation("messages:seed", { channel: "imported", count: 2500 }, admin);
    const snapshot = source.exportSnapshot();
    source.close();

    const dir = await dataDir();
    let engine = await start(dir);
    await send(engine, "acknowledged");
    failMarkedCommit("write", '"imported"', 1);
    await expect(engine.importSnapshot(snapshot)).rejects.toThrow(/ENOSPC/);
    const writes = vi.mocked(fs.writeSync).mock.calls.filter(([, b]) => String(b).includes('"imported"'));
    expect(writes).toHaveLength(2); // the first line was written, then cut back
    vi.restoreAllMocks();
    expect(await bodies(engine)).toEqual(["acknowledged"]);
    expect(await bodies(engine, "imported")).toEqual([]);
    await expect(send(engine, "C")).rejects.toThrow(/refused/);
    engine.close();

    engine = await start(dir);
    expect(await bodies(engine)).toEqual(["acknowledged"]);
    expect(await bodies(engine, "imported")).toEqual([]);
  });

  test("after a failed write, crons, scheduled functions and actions' mutations leave nothing; a restart resumes them", async () => {
    const dir = await dataDir();
    const errors: string[] = [];
    let engine = await start(dir, fixtureDir, true, errors);
    const cronRuns = async () => (await engine.query("counters:get", { name: "cron" }, admin)) as number | null;
    const state = (id: unknown) => engine.query("messages:scheduledState", { id }, admin);
    await vi.waitFor(async () => expect(await cronRuns()).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
    // A scheduled action in flight: its first mutation commits before the failure, its second after.
    const { value: actionJob } = await engine.mutation(
      "messages:runSlowActionLater",
      { channel: "a", ms: 2000 },
      admin,
    );
    await vi.waitFor(async () => expect(await bodies(engine, "a")).toEqual(["started"]), { timeout: 10_000 });
    // A scheduled mutation due after the failure.
    const later = { channel: "later", body: "later", delayMs: 1500 };
    const { value: laterJob } = await engine.mutation("messages:sendLater", later, admin);

    failMarkedCommit("write");
    await expect(send(engine, MARKER)).rejects.toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    const cronsAtFailure = await cronRuns();
    const viaAction = { channel: "c", author: "a", body: "via an action" };
    await expect(engine.action("messages:sendViaAction", viaAction, admin)).rejects.toThrow(/refused/);
    // Past the action's second mutation, the scheduled mutation's time and two cron intervals.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await cronRuns()).toBe(cronsAtFailure);
    expect(errors.some((line) => /cron "tick".*refused until the backend restarts/.test(line))).toBe(true);
    expect(await bodies(engine)).toEqual([]);
    expect(await bodies(engine, "a")).toEqual(["started"]);
    expect(await bodies(engine, "later")).toEqual([]);
    expect(await state(laterJob)).toBe("pending");
    expect(await state(actionJob)).toBe("inProgress");
    engine.close();

    engine = await start(dir, fixtureDir, true);
    // The pending mutation runs; the action that was running is failed, not run again (at most once).
    await vi.waitFor(async () => expect(await bodies(engine, "later")).toEqual(["later"]), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await state(actionJob)).toBe("failed"), { timeout: 10_000 });
    expect(await bodies(engine, "a")).toEqual(["started"]);
    await vi.waitFor(async () => expect(await cronRuns()).toBeGreaterThan(cronsAtFailure ?? 0), { timeout: 10_000 });
  });
});
