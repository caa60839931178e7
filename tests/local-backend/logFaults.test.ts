/**
 * Issue 18 item 3 (a): a failed append to the data log (a full disk mid-write)
 * never leaves a line that a restart applies, is not acknowledged, and stops
 * later commits until a restart; a restart ignores the lines of a commit whose
 * last line never came, and keeps the acknowledged commits written after them.
 * The faults are injected into `fs.writeSync` / `fs.fsyncSync` of this process,
 * where the DataStore runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { DataStore, type JsonDoc, type LogEntry } from "../../local-backend/src/storage/store";
import { batchDocs } from "../../local-backend/src/storage/storedBatches";
import { DataLog } from "../../local-backend/src/storage/dataLog";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "log-faults-"));
  dirs.push(dir);
  return dir;
}

const id = (n: number) => `${String(n).padStart(24, "0")}messages`;
const doc = (n: number, body = `body ${n}`) => ({ _id: id(n), _creationTime: 1_700_000_000_000 + n, body });
const entry = (ts: number, ns: number[]): LogEntry => ({ ts: String(ts), w: ns.map((n) => [id(n), doc(n)]) });

/** What a restart loads: every document by key. */
function reload(dir: string): Map<string, JsonDoc> {
  const store = new DataStore(dir);
  const loaded = new Map<string, JsonDoc>();
  for (const batch of store.load().batches) {
    for (const [key, value] of batchDocs(batch)) loaded.set(key, typeof value === "string" ? JSON.parse(value) : value);
  }
  store.closeLog();
  return loaded;
}

/** Makes the next write to the log write `bytes` of its buffer, then fail as a full disk does. */
function failNextWrite(bytes: number): void {
  const real = fs.writeSync.bind(fs);
  vi.spyOn(fs, "writeSync").mockImplementationOnce(((fd: number, buffer: Buffer, offset: number) => {
    real(fd, buffer, offset, Math.min(bytes, buffer.length - offset));
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  }) as unknown as typeof fs.writeSync);
}

describe("a failed append to the log", () => {
  test("is cut off, not acknowledged, and refuses later commits until a restart", () => {
    const dir = tempDir();
    const store = new DataStore(dir);
    store.load();
    store.append(entry(1, [1, 2]));
    const size = fs.statSync(store.logPath).size;

    failNextWrite(30);
    expect(() => store.append(entry(2, [3]))).toThrow(/ENOSPC/);
    // The partial line is gone from the log.
    expect(fs.statSync(store.logPath).size).toBe(size);
    // Nothing may build on the failed commit (memory holds it, the disk does not).
    expect(() => store.append(entry(3, [4]))).toThrow(/refused until the backend restarts/);
    expect(store.compactionDue()).toBe(false);
    expect(fs.statSync(store.logPath).size).toBe(size);
    store.closeLog();

    // A restart loads exactly what was acknowledged, and commits again.
    expect([...reload(dir).keys()]).toEqual([id(1), id(2)]);
    const restarted = new DataStore(dir);
    restarted.load();
    restarted.append(entry(4, [5]));
    restarted.closeLog();
    expect([...reload(dir).keys()]).toEqual([id(1), id(2), id(5)]);
  });

  test("a large commit failing after some of its lines leaves none of them", () => {
    const dir = tempDir();
    const store = new DataStore(dir);
    store.load();
    store.append(entry(1, [1]));
    const size = fs.statSync(store.logPath).size;
    // 5,000 writes are three lines; the second one fails half-way.
    const big = entry(
      2,
      Array.from({ length: 5000 }, (_, i) => 100 + i),
    );
    const real = fs.writeSync.bind(fs);
    let calls = 0;
    vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, buffer: Buffer, offset: number) => {
      if (++calls === 2) {
        real(fd, buffer, offset, 1000);
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      return real(fd, buffer, offset);
    }) as unknown as typeof fs.writeSync);
    expect(() => store.append(big)).toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(fs.statSync(store.logPath).size).toBe(size);
    store.closeLog();
    expect([...reload(dir).keys()]).toEqual([id(1)]);
  });

  test("a failed fsync is not acknowledged either, and what it covered is cut off", async () => {
    const dir = tempDir();
    const fsyncs: Array<(error: NodeJS.ErrnoException | null) => void> = [];
    const store = new DataStore(dir, (_fd, done) => fsyncs.push(done));
    store.load();
    store.append(entry(1, [1]));
    const first = store.durable();
    fsyncs.shift()!(null);
    await first;
    store.append(entry(2, [2]));
    const second = store.durable();
    fsyncs.shift()!(Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" }));
    await expect(second).rejects.toThrow(/EIO/);
    // Nothing may build on it, and nothing that read it may be answered.
    expect(() => store.append(entry(3, [3]))).toThrow(/refused/);
    await expect(store.durable()).rejects.toThrow(/EIO/);
    store.closeLog();
    expect([...reload(dir).keys()]).toEqual([id(1)]);
  });
});

describe("group commit", () => {
  test("commits written while an fsync runs share the next one; each waits for the fsync that covers it", async () => {
    const dir = tempDir();
    const fsyncs: Array<(error: NodeJS.ErrnoException | null) => void> = [];
    const store = new DataStore(dir, (fd, done) => fsyncs.push((error) => (error ? done(error) : fs.fsync(fd, done))));
    store.load();
    const heard: number[] = [];
    const wait = (n: number) => store.durable()!.then(() => heard.push(n));
    store.append(entry(1, [1]));
    const one = wait(1);
    // Three commits land while the first fsync runs.
    for (const n of [2, 3, 4]) store.append(entry(n, [n]));
    const rest = [wait(2), wait(3), wait(4)];
    expect(fsyncs).toHaveLength(1);
    fsyncs.shift()!(null);
    await one;
    // The first fsync began before they were written: they wait for the next, which covers all three.
    expect(heard).toEqual([1]);
    expect(fsyncs).toHaveLength(1);
    fsyncs.shift()!(null);
    await Promise.all(rest);
    expect(heard).toEqual([1, 2, 3, 4]);
    expect(store.durable()).toBeNull();
    expect(store.storageStats()).toMatchObject({ logFsyncs: 2, logFsyncedCommits: 4 });
    store.closeLog();
    expect([...reload(dir).keys()]).toEqual([1, 2, 3, 4].map(id));
  });

  test("a commit written after the log was emptied under a running fsync gets an fsync of its own", async () => {
    const dir = tempDir();
    const fsyncs: Array<(error: NodeJS.ErrnoException | null) => void> = [];
    const log = new DataLog(path.join(dir, "log.jsonl"), (fd, done) =>
      fsyncs.push((error) => (error ? done(error) : fs.fsync(fd, done))),
    );
    log.append(entry(1, [1]));
    expect(log.durable()).not.toBeNull();
    // A compaction empties the log while that fsync runs; the next commit comes before it ends.
    log.empty();
    log.append(entry(2, [2]));
    let heard = false;
    const second = log.durable()!.then(() => (heard = true));
    fsyncs.shift()!(null);
    // The finished fsync was of the old file: the new commit's own fsync starts now.
    await vi.waitFor(() => expect(fsyncs).toHaveLength(1));
    expect(heard).toBe(false);
    fsyncs.shift()!(null);
    await second;
    expect(log.durable()).toBeNull();
    log.close();
  });

  test("closing the log puts what waits on disk first", async () => {
    const dir = tempDir();
    const store = new DataStore(dir, () => {}); // an fsync that never ends
    store.load();
    store.append(entry(1, [1]));
    const waiting = store.durable();
    store.closeLog();
    await waiting;
    expect(store.durable()).toBeNull();
  });
});

describe("a restart over a log an older version left after a failed append", () => {
  test("drops a commit's lines whose last line never came, and keeps the acknowledged commits after them", () => {
    const dir = tempDir();
    const lines = [
      JSON.stringify(entry(1, [1])),
      // The first line of a large commit (ts 2) whose next line failed: never acknowledged.
      JSON.stringify({ ...entry(2, [2, 3]), more: true }),
      // The next commit, acknowledged.
      JSON.stringify(entry(3, [4])),
    ];
    fs.writeFileSync(path.join(dir, "log.jsonl"), lines.join("\n") + "\n");
    expect([...reload(dir).keys()]).toEqual([id(1), id(4)]);
  });

  test("a torn write followed on the same line by an acknowledged commit keeps that commit", () => {
    const dir = tempDir();
    const torn = JSON.stringify(entry(2, [2, 3])).slice(0, 45);
    const lines = [JSON.stringify(entry(1, [1])), torn + JSON.stringify(entry(3, [4])), JSON.stringify(entry(4, [5]))];
    fs.writeFileSync(path.join(dir, "log.jsonl"), lines.join("\n") + "\n");
    expect([...reload(dir).keys()]).toEqual([id(1), id(4), id(5)]);
    // Nothing was cut from the log (everything in it after the torn write was acknowledged).
    expect(fs.readFileSync(path.join(dir, "log.jsonl"), "utf8")).toBe(lines.join("\n") + "\n");
  });

  test("a torn last line is still cut off", () => {
    const dir = tempDir();
    const whole = JSON.stringify(entry(1, [1])) + "\n";
    fs.writeFileSync(path.join(dir, "log.jsonl"), whole + JSON.stringify(entry(2, [2])).slice(0, 30));
    expect([...reload(dir).keys()]).toEqual([id(1)]);
    expect(fs.readFileSync(path.join(dir, "log.jsonl"), "utf8")).toBe(whole);
  });
});
