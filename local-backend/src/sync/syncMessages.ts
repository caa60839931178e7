/**
 * The sync protocol's messages from a client (Connect, ModifyQuerySet,
 * Authenticate, Mutation, Action, Event), each handled in its session's queue.
 */
import { createHash } from "node:crypto";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { type Caller, canonicalPath, captureLogs, describeError } from "../runtime/index.js";
import { OCC_ERROR, OccError } from "../database/index.js";
import { type Entry, newEntry, type Subscription } from "./querySubscriptions.js";
import { authenticate } from "./syncAuth.js";
import type { ClientMessage } from "./syncSession.js";
import {
  encodeTs,
  MAX_INFLIGHT_MESSAGES,
  MAX_QUERIES_PER_ADDRESS,
  MAX_QUERIES_PER_CONNECTION,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  type Session,
  type SyncHost,
} from "./syncSession.js";

/** A UUID, as the official client's Connect carries (any version, either case). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who calls which function, for mutation de-duplication: the identity's
 * `tokenIdentifier` (stable across token refreshes, so a retry after a
 * reconnect with a fresh JWT still matches) and the canonical function path,
 * hashed to keep the log small.
 */
function requestFingerprint(caller: Caller, udfPath: unknown): string {
  let who: string;
  if (caller.kind === "user") {
    const tokenIdentifier = caller.identity.tokenIdentifier;
    who = `user:${typeof tokenIdentifier === "string" ? tokenIdentifier : caller.key}`;
  } else who = caller.kind;
  const path = typeof udfPath === "string" ? canonicalPath(udfPath) : "";
  return createHash("sha256").update(`${who}\u0000${path}`).digest("base64url").slice(0, 22);
}

export function dispatch(sync: SyncHost, session: Session, message: ClientMessage, size: number): void {
  switch (message.type) {
    case "Connect":
      // The official client always sends a random UUID (convex-js
      // src/browser/sync/session.ts); the id goes into every kept mutation
      // result, so anything else is refused rather than stored.
      if (typeof message.sessionId !== "string" || !SESSION_ID.test(message.sessionId)) {
        session.fatal("Invalid Connect: sessionId must be a UUID");
        return;
      }
      session.sessionId = message.sessionId;
      return;
    case "ModifyQuerySet":
      session.enqueue(() => modifyQuerySet(sync, session, message), size);
      return;
    case "Authenticate":
      session.enqueue(() => authenticate(sync, session, message), size);
      return;
    case "Mutation":
      session.enqueue(() => mutation(sync, session, message), size);
      return;
    case "Action":
      // Actions run concurrently; they do not hold up the session's queue.
      // A running action holds its message: it counts against the budget until it ends.
      if (!session.reserve(size)) return;
      session.enqueue(async () => {
        if (session.actionsInFlight >= MAX_INFLIGHT_MESSAGES) {
          session.queuedBytes -= size;
          session.fatal(
            `TooManyInflightActionsForSingleClient: more than ${MAX_INFLIGHT_MESSAGES} actions are running on this connection`,
          );
          return;
        }
        session.actionsInFlight++;
        void action(sync, session, message).finally(() => {
          session.actionsInFlight--;
          session.queuedBytes -= size;
        });
      });
      return;
    case "Event":
      return;
    default:
      session.fatal(`Unknown message type "${String(message.type).slice(0, 100)}"`);
  }
}

async function checkFunction(
  sync: SyncHost,
  udfPath: unknown,
  kind: "query" | "mutation" | "action",
  caller: Caller,
): Promise<string> {
  if (typeof udfPath !== "string" || udfPath.length === 0) throw new Error("Missing udfPath");
  const path = canonicalPath(udfPath);
  const info = await sync.engine.describe(path);
  if (!info || (info.visibility !== "public" && caller.kind !== "admin")) {
    throw new Error(`Could not find public function for '${path}'. Did you forget to run \`npx convex dev\`?`);
  }
  if (info.kind !== kind) {
    throw new Error(
      `Trying to execute ${path} as ${kind === "query" ? "Query" : kind === "mutation" ? "Mutation" : "Action"}, but it is defined as ${info.kind === "query" ? "Query" : info.kind === "mutation" ? "Mutation" : "Action"}.`,
    );
  }
  return path;
}

async function modifyQuerySet(sync: SyncHost, session: Session, message: ClientMessage): Promise<void> {
  if (
    message.baseVersion !== (session.pendingQuerySet ?? session.querySetVersion) ||
    typeof message.newVersion !== "number"
  ) {
    session.fatal(`Invalid ModifyQuerySet: base version ${message.baseVersion}, expected ${session.querySetVersion}`);
    return;
  }
  if (!Array.isArray(message.modifications)) {
    session.fatal("Invalid ModifyQuerySet: modifications must be an array");
    return;
  }
  for (const mod of message.modifications) {
    if (mod?.type === "Add" && typeof mod.queryId === "number") {
      const old = session.queries.get(mod.queryId);
      if (old) {
        sync.queries.release(old.entry);
        session.queries.delete(mod.queryId);
      }
      const sub = await subscribe(sync, session, mod.udfPath, mod.args, mod.journal);
      if (session.closed) {
        // Dropped while this message ran: drop() already released the rest.
        sync.queries.release(sub.entry);
        return;
      }
      session.queries.set(mod.queryId, sub);
      if (session.queries.size > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
        session.fatal(
          `TooManySubscriptions: a connection may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} queries`,
        );
        return;
      }
      if (
        session.queries.size > MAX_QUERIES_PER_CONNECTION &&
        session.distinctQueries().size > MAX_QUERIES_PER_CONNECTION
      ) {
        session.fatal(
          `TooManyQueries: a connection may subscribe to at most ${MAX_QUERIES_PER_CONNECTION} different queries (function and arguments); each is re-run on every write it read`,
        );
        return;
      }
      session.removed = session.removed.filter((id) => id !== mod.queryId);
      session.pendingRemoved = session.pendingRemoved.filter((id) => id !== mod.queryId);
    } else if (mod?.type === "Remove" && typeof mod.queryId === "number") {
      const old = session.queries.get(mod.queryId);
      if (old) {
        sync.queries.release(old.entry);
        session.queries.delete(mod.queryId);
        session.pendingRemoved.push(mod.queryId);
      }
    } else {
      session.fatal(`Invalid query set modification: ${JSON.stringify(mod)?.slice(0, 200)}`);
      return;
    }
  }
  if (sync.distinctQueriesFrom(session.address) > MAX_QUERIES_PER_ADDRESS) {
    session.fatal(
      `TooManyQueriesFromAddress: the connections from one address may subscribe to at most ${MAX_QUERIES_PER_ADDRESS} different queries together`,
    );
    return;
  }
  // New queries are computed by the next flush, at the same snapshot as every
  // other query, and go out in its Transition with the new query set version.
  session.pendingQuerySet = message.newVersion;
  sync.pendingSessions.add(session);
  await sync.requestFlush();
}

/** A subscription to an entry; bad paths or args give a failing entry of their own. */
async function subscribe(
  sync: SyncHost,
  session: Session,
  udfPath: unknown,
  rawArgs: unknown,
  journal: unknown,
): Promise<Subscription> {
  let path: string;
  let args: Record<string, unknown>;
  try {
    path = await checkFunction(sync, udfPath, "query", session.caller);
    const first = Array.isArray(rawArgs) ? rawArgs[0] : rawArgs;
    args = (first === undefined ? {} : jsonToConvex(first as JSONValue)) as Record<string, unknown>;
  } catch (error) {
    const key = `invalid:${Math.random()}`;
    const entry: Entry = {
      ...newEntry(key, key, String(udfPath), {}, session.caller, null),
      result: { ok: false, message: (error as Error).message },
      version: 1,
      refs: 1,
    };
    return { entry, sentVersion: 0, live: false, request: { udfPath, args: rawArgs, journal } };
  }
  return {
    entry: sync.queries.acquire(path, args, session.caller, typeof journal === "string" ? journal : null),
    sentVersion: 0,
    live: false,
  };
}

/**
 * After a reload: subscriptions that failed before running (their function
 * did not exist or was not a query) are looked up again, in the session's
 * queue after what it already asked; one that now resolves runs in the next
 * flush, one that fails the same way sends nothing new.
 */
export function recheckFailedSubscriptions(sync: SyncHost, session: Session): void {
  const failed = [...session.queries].filter(([, sub]) => sub.request);
  if (failed.length === 0) return;
  session.enqueue(async () => {
    let changed = false;
    for (const [queryId, sub] of failed) {
      const { udfPath, args, journal } = sub.request!;
      const next = await subscribe(sync, session, udfPath, args, journal);
      const unchanged = next.request !== undefined && failure(next) === failure(sub);
      if (session.closed || session.queries.get(queryId) !== sub || unchanged) {
        sync.queries.release(next.entry);
        if (session.closed) return;
        continue;
      }
      session.queries.set(queryId, next);
      sync.queries.release(sub.entry);
      changed = true;
    }
    if (!changed) return;
    sync.pendingSessions.add(session);
    await sync.requestFlush();
  });
}

function failure(sub: Subscription): string | null {
  const result = sub.entry.result;
  return result && !result.ok ? result.message : null;
}

async function mutation(sync: SyncHost, session: Session, message: ClientMessage): Promise<void> {
  const requestId = message.requestId;
  if (typeof requestId !== "number") {
    session.fatal("Mutation without a numeric requestId");
    return;
  }
  // A retry must come from the same session, identity and function: a request
  // id replayed on another identity (or for another function) never returns
  // someone else's result.
  const dedupeSession = session.sessionId
    ? `${session.sessionId}|${requestFingerprint(session.caller, message.udfPath)}`
    : "";
  const dedupeKey = `${dedupeSession}:${requestId}`;
  const previous = dedupeSession ? sync.engine.mutationResults.get(dedupeKey) : undefined;
  if (previous) {
    // A retry after a reconnect: it already committed, answer with its first result (once on disk).
    try {
      await sync.engine.durable();
    } catch (error) {
      session.fatal((error as Error).message);
      return;
    }
    session.send({
      type: "MutationResponse",
      requestId,
      success: true,
      result: previous.result,
      ts: encodeTs(previous.ts),
      logLines: [],
    });
    if (previous.ts > session.needTs) session.needTs = previous.ts;
    sync.push(session);
    return;
  }
  session.mutationInFlight = true;
  const logLines: string[] = [];
  try {
    const path = await checkFunction(sync, message.udfPath, "mutation", session.caller);
    const args = jsonToConvex((Array.isArray(message.args) ? message.args[0] : message.args) ?? {}) as Record<
      string,
      unknown
    >;
    const { value, ts } = await captureLogs(logLines, () =>
      sync.engine.mutation(path, args, session.caller, { sessionId: dedupeSession, requestId }),
    );
    session.send({
      type: "MutationResponse",
      requestId,
      success: true,
      result: convexToJson((value ?? null) as Value),
      ts: encodeTs(ts),
      logLines,
    });
    if (ts > session.needTs) session.needTs = ts;
  } catch (error) {
    if (error instanceof OccError) {
      // As Convex's sync worker: no response; the socket closes with 1013 "try again" and
      // the client resends the mutation once it has reconnected.
      sync.drop(session);
      session.ws.close(1013, OCC_ERROR);
      return;
    }
    const { message: errorMessage, data } = describeError(error);
    session.send({
      type: "MutationResponse",
      requestId,
      success: false,
      result: errorMessage,
      logLines,
      ...(data !== undefined ? { errorData: data } : {}),
    });
  } finally {
    session.mutationInFlight = false;
  }
  // The Transition carrying this timestamp follows once re-runs are done;
  // if nothing needs re-running, push now.
  sync.kick();
  if (session.deferredPush) {
    session.deferredPush = false;
    sync.push(session);
  }
}

async function action(sync: SyncHost, session: Session, message: ClientMessage): Promise<void> {
  const requestId = message.requestId;
  const logLines: string[] = [];
  try {
    const path = await checkFunction(sync, message.udfPath, "action", session.caller);
    const args = jsonToConvex((Array.isArray(message.args) ? message.args[0] : message.args) ?? {}) as Record<
      string,
      unknown
    >;
    const value = await captureLogs(logLines, () => sync.engine.action(path, args, session.caller));
    session.send({
      type: "ActionResponse",
      requestId,
      success: true,
      result: convexToJson((value ?? null) as Value),
      logLines,
    });
  } catch (error) {
    const { message: errorMessage, data } = describeError(error);
    session.send({
      type: "ActionResponse",
      requestId,
      success: false,
      result: errorMessage,
      logLines,
      ...(data !== undefined ? { errorData: data } : {}),
    });
  }
}
