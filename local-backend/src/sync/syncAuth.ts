/**
 * The sync protocol's Authenticate: a user's JWT (verified), an admin key (and
 * whom it impersonates) or none; the token's expiry ends the identity; every
 * subscription of the session then runs as the new identity.
 */
import { AuthError, EXPIRES, isAdminKey } from "../auth/index.js";
import type { Caller } from "../runtime/index.js";
import { journalString, type Subscription } from "./querySubscriptions.js";
import type { ClientMessage, Session, SyncHost } from "./syncSession.js";

export async function authenticate(sync: SyncHost, session: Session, message: ClientMessage): Promise<void> {
  if (message.baseVersion !== (session.pendingIdentity ?? session.identityVersion)) {
    session.fatal(`Invalid Authenticate: base version ${message.baseVersion}, expected ${session.identityVersion}`);
    return;
  }
  let caller: Caller;
  try {
    if (message.tokenType === "None") {
      caller = { kind: "none" };
    } else if (message.tokenType === "User" && typeof message.value === "string") {
      const identity = await sync.verifier.verify(message.value);
      if (session.closed) return;
      caller = { kind: "user", identity, key: JSON.stringify(identity) };
    } else if (message.tokenType === "Admin" && typeof message.value === "string") {
      if (!isAdminKey(sync.engine.store.adminKey(), message.value)) throw new AuthError("Invalid admin key");
      caller = message.impersonating
        ? {
            kind: "user",
            identity: { ...message.impersonating },
            key: JSON.stringify(message.impersonating),
          }
        : { kind: "admin" };
    } else {
      session.fatal(`Invalid Authenticate message`);
      return;
    }
  } catch (error) {
    const reason = error instanceof AuthError ? error.message : `Authentication failed: ${String(error)}`;
    session.send({ type: "AuthError", error: reason, baseVersion: message.baseVersion, authUpdateAttempted: true });
    // Like Convex, the connection ends; the client reconnects with a fresh token or none.
    session.closed = true;
    sync.drop(session);
    setTimeout(() => session.ws.close(1000, "AuthError"), 10).unref();
    return;
  }
  session.caller = caller;
  const identityVersion = message.baseVersion + 1;
  if (session.expiryTimer) clearTimeout(session.expiryTimer);
  session.expiryTimer = null;
  const expires = caller.kind === "user" ? (caller.identity as Record<PropertyKey, unknown>)[EXPIRES] : undefined;
  if (typeof expires === "number") {
    const version = identityVersion;
    // Like Convex: when the token runs out, the client is told and fetches a new one.
    session.expiryTimer = setTimeout(
      () => {
        if (session.closed || (session.pendingIdentity ?? session.identityVersion) !== version) return;
        session.send({
          type: "AuthError",
          error: "Token expired",
          baseVersion: version - 1,
          authUpdateAttempted: false,
        });
        sync.drop(session);
        setTimeout(() => session.ws.close(1000, "AuthError"), 10).unref();
      },
      Math.min(Math.max(0, expires * 1000 - Date.now()), 2 ** 31 - 1),
    );
    session.expiryTimer.unref();
  }
  // Every query now runs as the new identity; the next flush computes them and
  // sends them with the new identity version.
  for (const [queryId, sub] of session.queries) {
    // One that failed before running (unknown function, bad arguments) has nothing to re-run.
    if (sub.request) continue;
    const next: Subscription = {
      entry: sync.queries.acquire(sub.entry.udfPath, sub.entry.args, caller, journalString(sub.entry.journal)),
      sentVersion: 0,
      live: false,
    };
    sync.queries.release(sub.entry);
    session.queries.set(queryId, next);
  }
  session.pendingIdentity = identityVersion;
  sync.pendingSessions.add(session);
  await sync.requestFlush();
}
