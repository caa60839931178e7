/**
 * File storage: single-use upload URLs, uploads streamed to disk, the `_storage`
 * documents' files served from disk, and the count of documents per file
 * content so bytes nothing refers to are removed.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import type { DataStore } from "../storage/index.js";
import { mutationTag, readTracker, tableFromId } from "../runtime/index.js";
import type { TestAccessor, IndexedDatabase } from "../database/index.js";

/** A `_storage` row: the file's hash and its content type. */
type StorageRow = { _id: string; sha256: string; contentType?: string };

/** How long an upload URL can be used (once). */
export const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;

/** What file storage uses of the engine: the database, convex-test's runner, the data directory, the error log. */
export type FileHost = {
  readonly db: IndexedDatabase;
  readonly t: TestAccessor;
  readonly store: DataStore;
  logError(line: string): void;
};

export class FileStorage {
  private readonly startedAt = Date.now();
  /** Spent upload token nonces, with their expiry. */
  private spentUploads = new Map<string, number>();
  /** File content (sha256) of each `_storage` document, and how many documents share each content. */
  private fileShas = new Map<string, string>();
  private shaRefs = new Map<string, number>();

  constructor(private readonly engine: FileHost) {}

  private get store() {
    return this.engine.store;
  }

  /** Restored `_storage` documents ([id, sha256, content type]): Blobs backed by their bytes on disk. */
  async restore(files: [string, string, string][]): Promise<void> {
    const db = this.engine.db;
    // Files are Blobs backed by their bytes on disk: memory does not grow with them.
    for (const [id, sha, type] of files) {
      this.fileShas.set(id, sha);
      this.shaRefs.set(sha, (this.shaRefs.get(sha) ?? 0) + 1);
      const file = this.store.fileName(sha);
      if (fs.existsSync(file)) db._storage[id] = await fs.openAsBlob(file, { type });
      else this.engine.logError(`stored file ${id} is missing its bytes in ${this.store.dir}/files`);
    }
  }

  /**
   * An upload URL's token: `<expires>.<nonce>.<hmac>`. It lives 10 minutes
   * (Convex's live an hour; the app uploads right after asking) and is good for
   * one upload: the nonce is spent when an upload starts (see claimUploadToken).
   */
  uploadToken(): string {
    const expires = Date.now() + UPLOAD_URL_TTL_MS;
    const nonce = randomBytes(12).toString("base64url");
    return `${expires}.${nonce}.${this.uploadSignature(expires, nonce)}`;
  }

  private uploadSignature(expires: number, nonce: string): string {
    return createHmac("sha256", this.store.adminKey()).update(`upload:${expires}:${nonce}`).digest("base64url");
  }

  /**
   * Spends an upload token: true once for a valid, unexpired token issued by
   * this process (spent nonces are kept in memory, so tokens from before a
   * restart are refused rather than possibly reused).
   */
  claimUploadToken(token: string | null): boolean {
    if (!token) return false;
    const [expiresText, nonce, sig] = token.split(".");
    const expires = Number(expiresText);
    if (!nonce || !sig || !Number.isSafeInteger(expires)) return false;
    const now = Date.now();
    if (expires < now || expires - UPLOAD_URL_TTL_MS < this.startedAt) return false;
    const a = Buffer.from(sig);
    const b = Buffer.from(this.uploadSignature(expires, nonce));
    if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
    if (this.spentUploads.has(nonce)) return false;
    if (this.spentUploads.size > 1000) {
      for (const [spent, until] of this.spentUploads) if (until < now) this.spentUploads.delete(spent);
    }
    this.spentUploads.set(nonce, expires);
    return true;
  }

  /**
   * Stores an upload streamed from `source` (at most `limit` bytes, else
   * UploadTooLarge and nothing is kept): the bytes go to disk as they arrive,
   * and the file is served from disk, never held in memory.
   */
  async storeUpload(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    contentType: string | null,
    limit: number,
  ): Promise<string> {
    const { sha, size } = await this.store.writeStream(source, limit);
    // Pinned: a concurrent delete of another file with these bytes must not remove them.
    this.shaRefs.set(sha, (this.shaRefs.get(sha) ?? 0) + 1);
    try {
      const blob = await fs.openAsBlob(this.store.fileName(sha), contentType ? { type: contentType } : {});
      const doc = { size, sha256: sha, ...(contentType ? { contentType } : {}) };
      const db = this.engine.db;
      const id: string = await readTracker.exit(() =>
        mutationTag.exit(() => this.engine.t.run(async () => db.insert("_storage", doc))),
      );
      db.storeFile(id, blob);
      // The id is answered once its `_storage` document is on disk (the log fsyncs in groups).
      await this.engine.store.durable();
      return id;
    } finally {
      this.releaseSha(sha);
    }
  }

  /** Stores bytes already in memory (tests, tools); returns the storage id. */
  async storeFile(bytes: Uint8Array, contentType: string | null): Promise<string> {
    return await this.storeUpload([bytes], contentType, Infinity);
  }

  private releaseSha(sha: string): void {
    const count = (this.shaRefs.get(sha) ?? 0) - 1;
    if (count > 0) {
      this.shaRefs.set(sha, count);
      return;
    }
    this.shaRefs.delete(sha);
    this.store.removeFile(sha);
  }

  /**
   * Keeps the count of `_storage` documents per file content; bytes nothing
   * refers to any more are removed from disk (after the commit is durable).
   */
  trackStorage(ids: string[]): void {
    const db = this.engine.db;
    const dropped: string[] = [];
    for (const id of ids) {
      if (tableFromId(id) !== "_storage") continue;
      const doc = db.committed(id) as StorageRow | null;
      const old = this.fileShas.get(id);
      if (doc && doc.sha256 !== old) {
        this.fileShas.set(id, doc.sha256);
        this.shaRefs.set(doc.sha256, (this.shaRefs.get(doc.sha256) ?? 0) + 1);
        if (old !== undefined) dropped.push(old);
      } else if (!doc && old !== undefined) {
        this.fileShas.delete(id);
        delete db._storage[id];
        dropped.push(old);
      }
    }
    for (const sha of dropped) this.releaseSha(sha);
  }

  /** A committed file and its content type, or null. */
  getFile(storageId: string): { blob: Blob; contentType: string | null } | null {
    if (tableFromId(storageId) !== "_storage") return null;
    const db = this.engine.db;
    const doc = db.committed(storageId) as StorageRow | null;
    const blob = db._storage[storageId];
    if (!doc || !blob) return null;
    return { blob, contentType: doc.contentType ?? (blob.type || null) };
  }
}
