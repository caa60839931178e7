/**
 * Pagination cursors and query journals the client cannot forge, as on
 * Convex: a cursor is sealed with a key derived from the instance's secret
 * (Convex: crates/keybroker/src/broker.rs `encrypt_cursor`/`decrypt_cursor`,
 * an AEAD keyed per purpose from the deployment secret in encryptor.rs), and
 * carries a fingerprint of the query it came from (table, index, range,
 * order, filters, as Convex's `Query::fingerprint` in
 * crates/common/src/query.rs hashes the whole query).
 *
 * A cursor that does not open (changed, made by hand, from another data
 * directory) is refused with `Failed to parse cursor` (Convex's
 * `cursor_parse_error`); one from another query or index with Convex's
 * `InvalidCursor` message (crates/database/src/query/mod.rs). Both are a
 * ConvexError whose data (`{ isConvexSystemError: true, paginationError:
 * "InvalidCursor" }`) tells `usePaginatedQuery` to start over.
 *
 * A subscription's journal (its pinned page end, sent back to the client in
 * QueryUpdated) holds its end cursor sealed under a key of its own (Convex's
 * `encrypt_query_journal`, crates/common/src/query_journal.rs), so a cursor
 * handed out by a page is no journal and a journal is no cursor.
 *
 * The key: HKDF-SHA256 of the data directory's admin key (store.ts, made
 * once per data dir, owner-only) with a label per purpose; nothing new is
 * stored. The AEAD is AES-256-GCM with a synthetic IV (an HMAC of the
 * plaintext under a second derived key): sealing is deterministic, as
 * Convex's cursor encryption is (AES-GCM-SIV with a fixed nonce), so a
 * re-run of a query returns the same cursors and journal and its result and
 * cache key do not change. Inside, convex-test's own cursor (indexedDatabase.ts
 * keeps them).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { ConvexError } from "convex/values";

export const INVALID_CURSOR_MESSAGE =
  "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.";
export const CURSOR_PARSE_MESSAGE = "Failed to parse cursor";

function invalidCursor(message = INVALID_CURSOR_MESSAGE): Error {
  const error = new ConvexError({ isConvexSystemError: true, paginationError: "InvalidCursor" });
  error.message = message;
  return error;
}

/** The fingerprint of a query as the `1.0/queryPage` syscall receives it (JSON). */
export function queryFingerprint(query: unknown): string {
  return createHash("sha256").update(JSON.stringify(query)).digest("base64url").slice(0, 22);
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

type Purpose = "cursor" | "journal";

/** One purpose's keys: AES-256-GCM's and the synthetic IV's. */
class Sealer {
  private readonly aesKey: Buffer;
  private readonly ivKey: Buffer;
  private readonly aad: Buffer;

  constructor(secret: string, purpose: Purpose) {
    const keys = Buffer.from(
      hkdfSync("sha256", secret, "stagetime-local-backend", `pagination ${purpose} v${VERSION}`, 64),
    );
    this.aesKey = keys.subarray(0, 32);
    this.ivKey = keys.subarray(32);
    this.aad = Buffer.from([VERSION]);
  }

  private iv(plaintext: Buffer): Buffer {
    return createHmac("sha256", this.ivKey).update(plaintext).digest().subarray(0, IV_BYTES);
  }

  seal(text: string): string {
    const plaintext = Buffer.from(text, "utf8");
    const iv = this.iv(plaintext);
    const cipher = createCipheriv("aes-256-gcm", this.aesKey, iv).setAAD(this.aad);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([this.aad, iv, body, cipher.getAuthTag()]).toString("base64url");
  }

  /** The sealed text, or null if it does not open (changed, forged, another key). */
  open(sealed: string): string | null {
    const bytes = Buffer.from(sealed, "base64url");
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) return null;
    if (bytes.toString("base64url") !== sealed) return null; // not canonical base64url
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.aesKey, iv).setAAD(this.aad);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      return null;
    }
    return timingSafeEqual(iv, this.iv(plaintext)) ? plaintext.toString("utf8") : null;
  }
}

/** Seals and opens one backend's cursors and journal end cursors (keyed from its data dir's secret). */
export class CursorSeal {
  private readonly cursors: Sealer;
  private readonly journals: Sealer;

  constructor(secret: string) {
    this.cursors = new Sealer(secret, "cursor");
    this.journals = new Sealer(secret, "journal");
  }

  /** A cursor of convex-test's, sealed with its query's fingerprint. */
  wrap(cursor: string, fingerprint: string): string;
  wrap(cursor: string | null, fingerprint: string): string | null;
  wrap(cursor: string | null, fingerprint: string): string | null {
    return cursor === null ? null : this.cursors.seal(JSON.stringify([fingerprint, cursor]));
  }

  /** convex-test's cursor inside a sealed one; throws InvalidCursor if it does not open or is from another query. */
  unwrap(cursor: unknown, fingerprint: string): string | null | undefined {
    if (cursor === null || cursor === undefined) return cursor;
    return opened(typeof cursor === "string" ? this.cursors.open(cursor) : null, fingerprint);
  }

  /** A journal's end cursor, sealed under the journal key. */
  wrapJournal(cursor: string, fingerprint: string): string {
    return this.journals.seal(JSON.stringify([fingerprint, cursor]));
  }

  /** The end cursor in a journal; throws like `unwrap` (Convex's `decrypt_query_journal` fails the query). */
  unwrapJournal(endCursor: string, fingerprint: string): string {
    return opened(this.journals.open(endCursor), fingerprint);
  }
}

function opened(text: string | null, fingerprint: string): string {
  let payload: unknown;
  try {
    payload = text === null ? null : JSON.parse(text);
  } catch {
    payload = null;
  }
  if (!Array.isArray(payload) || payload.length !== 2 || typeof payload[1] !== "string") {
    throw invalidCursor(CURSOR_PARSE_MESSAGE);
  }
  if (payload[0] !== fingerprint) throw invalidCursor();
  return payload[1];
}
