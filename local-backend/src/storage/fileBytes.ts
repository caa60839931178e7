/**
 * Stored file bytes (`files/` in the data directory): content-addressed by
 * sha256, fsync'd before their `_storage` document commits, streamed to disk
 * as they arrive.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { FILE_MODE, fsyncDir } from "./dataDir.js";

/** An upload over the size limit (the server answers 413). */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The upload is larger than ${limit} bytes`);
  }
}

export class FileBytes {
  constructor(readonly dir: string) {
    // Uploads cut off by a crash.
    for (const name of fs.readdirSync(path.join(this.dir, "files"))) {
      if (/^upload-[0-9a-f]+\.tmp$/.test(name)) fs.rmSync(path.join(this.dir, "files", name), { force: true });
    }
  }

  private fsyncDir(): void {
    fsyncDir(this.dir);
  }

  /** Content-addressed by sha256 (as convex-test's _storage documents record it). */
  fileName(sha256Base64: string): string {
    return path.join(this.dir, "files", Buffer.from(sha256Base64, "base64").toString("hex"));
  }

  /** Stores bytes durably; returns their sha256 in base64. */
  writeFile(bytes: Uint8Array): string {
    const sha = createHash("sha256").update(bytes).digest("base64");
    const file = this.fileName(sha);
    if (!fs.existsSync(file)) {
      const tmp = `${file}.tmp`;
      const fd = fs.openSync(tmp, "w", FILE_MODE);
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
      this.fsyncDir();
    }
    return sha;
  }

  /**
   * Streams bytes to disk (fsync'd), hashing as they arrive; content-addressed
   * like writeFile. More than `limit` bytes: UploadTooLarge, and nothing is kept.
   */
  async writeStream(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    limit: number,
  ): Promise<{ sha: string; size: number }> {
    const tmp = path.join(this.dir, "files", `upload-${randomBytes(8).toString("hex")}.tmp`);
    const handle = await fs.promises.open(tmp, "w", FILE_MODE);
    const hash = createHash("sha256");
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > limit) throw new UploadTooLarge(limit);
        hash.update(chunk);
        await handle.write(chunk);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      fs.rmSync(tmp, { force: true });
      throw error;
    }
    await handle.close();
    const sha = hash.digest("base64");
    const file = this.fileName(sha);
    if (fs.existsSync(file)) fs.rmSync(tmp, { force: true });
    else {
      fs.renameSync(tmp, file);
      this.fsyncDir();
    }
    return { sha, size };
  }

  /** Removes stored bytes no `_storage` document refers to any more. */
  removeFile(sha256Base64: string): void {
    fs.rmSync(this.fileName(sha256Base64), { force: true });
  }

  readFile(sha256Base64: string): Buffer | null {
    const file = this.fileName(sha256Base64);
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  }
}
