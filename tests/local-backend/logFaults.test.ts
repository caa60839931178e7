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

  test("a failed fsync is not acknowledged either", () => {
    const dir = tempDir();
    const store = new DataStore(dir);
    store.load();
    store.append(entry(1, [1]));
    vi.spyOn(fs, "fsyncSync").mockImplementationOnce(() => {
      throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
    });
    expect(() => store.append(entry(2, [2]))).toThrow(/EIO/);
    expect(() => store.append(entry(3, [3]))).toThrow(/refused/);
    store.closeLog();
    expect([...reload(dir).keys()]).toEqual([id(1)]);
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
