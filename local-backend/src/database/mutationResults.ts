/**
 * The results of committed mutations, kept so a client that reconnects and
 * retries a mutation it never heard back about gets the first result instead
 * of running it twice. Convex keeps them in its `_session_requests` system
 * table and deletes them after two weeks (MAX_SESSION_CLEANUP_DURATION_HOURS,
 * crates/common/src/knobs.rs); here they are in memory, so counts bound them too.
 *
 * The keys start with a client-chosen session id, so the map must not grow
 * with what clients send: a result is kept for {@link MUTATION_RESULT_TTL_MS}
 * at most, a session keeps only its last {@link MUTATION_RESULTS_PER_SESSION}
 * (a client only retries the mutations it has in flight, which are its
 * latest), and the whole map holds at most {@link MAX_MUTATION_RESULTS}
 * (oldest dropped first). A retry of a mutation whose result was dropped runs
 * it again, as on a backend that lost it. Compaction writes no results to
 * `snapshot.json`, so the log's copies go with it.
 */
export const MUTATION_RESULT_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const MUTATION_RESULTS_PER_SESSION = 100;
export const MAX_MUTATION_RESULTS = 100_000;

export type MutationResult = { ts: bigint; result: unknown };

/** `sessionId|fingerprint:requestId` keys: the session is everything before the first `|` or `:`. */
function sessionOf(key: string): string {
  const match = /^[^|:]*/.exec(key);
  return match ? match[0] : key;
}

export class MutationResults {
  /** Insertion order is age order (a re-set key moves to the end). */
  private readonly results = new Map<string, MutationResult & { at: number }>();
  private readonly perSession = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.results.size;
  }

  get(key: string): MutationResult | undefined {
    const entry = this.results.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > MUTATION_RESULT_TTL_MS) {
      this.delete(key);
      return undefined;
    }
    return { ts: entry.ts, result: entry.result };
  }

  set(key: string, value: MutationResult): this {
    this.delete(key);
    this.results.set(key, { ...value, at: this.now() });
    const session = sessionOf(key);
    let keys = this.perSession.get(session);
    if (!keys) this.perSession.set(session, (keys = new Set()));
    keys.add(key);
    // A Set iterates in insertion order: the first is the session's oldest.
    while (keys.size > MUTATION_RESULTS_PER_SESSION) this.delete(keys.values().next().value as string);
    this.prune();
    return this;
  }

  /** Drops expired results and, past the cap, the oldest. */
  prune(): void {
    const cutoff = this.now() - MUTATION_RESULT_TTL_MS;
    for (const [key, entry] of this.results) {
      if (entry.at >= cutoff && this.results.size <= MAX_MUTATION_RESULTS) break;
      this.delete(key);
    }
  }

  private delete(key: string): void {
    if (!this.results.delete(key)) return;
    const session = sessionOf(key);
    const keys = this.perSession.get(session);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.perSession.delete(session);
  }
}
