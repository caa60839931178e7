/**
 * A bare sync-protocol client for tests that need frames the official client
 * hides or never sends (replayed request ids, queued messages after an
 * AuthError, hundreds of subscriptions on one socket). Frames follow
 * convex-js src/browser/sync/protocol.ts.
 */
import { randomUUID } from "node:crypto";
import { version } from "convex";
import { convexToJson } from "convex/values";
import WebSocket from "ws";
import { waitFor, type Backend } from "./harness";

/** A server timestamp on the wire: a u64, little-endian, base64-encoded. */
export function decodeTs(encoded: string): bigint {
  const bytes = Buffer.from(encoded, "base64");
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

/** A query to add; `journal` as a reconnecting client sends it (left out when undefined). */
export type QueryAdd = { queryId: number; udfPath: string; args: Record<string, unknown>; journal?: string | null };

export class RawClient {
  readonly messages: any[] = [];
  querySetVersion = 0;
  identityVersion = 0;
  nextRequestId = 0;
  closed = false;

  private constructor(
    readonly socket: WebSocket,
    readonly sessionId: string,
  ) {
    socket.on("message", (data) => this.messages.push(JSON.parse(data.toString())));
    socket.on("close", () => (this.closed = true));
  }

  /** Opens a socket and sends Connect (with `sessionId`, a fresh one by default). */
  static async open(backend: Backend, sessionId: string = randomUUID()): Promise<RawClient> {
    const socket = new WebSocket(`${backend.url.replace(/^http/, "ws")}/api/${version}/sync`);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const client = new RawClient(socket, sessionId);
    client.send({
      type: "Connect",
      sessionId,
      connectionCount: 0,
      lastCloseReason: "InitialConnect",
      clientTs: Date.now(),
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** One ModifyQuerySet adding every query in `adds`. */
  subscribe(adds: QueryAdd[]): void {
    this.send({
      type: "ModifyQuerySet",
      baseVersion: this.querySetVersion,
      newVersion: ++this.querySetVersion,
      modifications: adds.map(({ queryId, udfPath, args, journal }) => ({
        type: "Add",
        queryId,
        udfPath,
        args: [convexToJson(args as any)],
        ...(journal !== undefined ? { journal } : {}),
      })),
    });
  }

  authenticate(token: string): void {
    this.send({ type: "Authenticate", tokenType: "User", value: token, baseVersion: this.identityVersion++ });
  }

  mutate(udfPath: string, args: Record<string, unknown>, requestId = this.nextRequestId++): number {
    this.send({ type: "Mutation", requestId, udfPath, args: [convexToJson(args as any)] });
    return requestId;
  }

  /** The first message at or after `from` that satisfies `predicate`. */
  async waitForMessage(predicate: (message: any) => boolean, what: string, from = 0, timeoutMs = 30_000): Promise<any> {
    return await waitFor(() => this.messages.find((m, i) => i >= from && predicate(m)), {
      timeoutMs,
      message: `${what}; got ${JSON.stringify(this.messages.slice(from)).slice(0, 1500)}`,
    });
  }

  transitions(): any[] {
    return this.messages.filter((m) => m.type === "Transition");
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const closed = new Promise<void>((resolve) => this.socket.once("close", () => resolve()));
    this.socket.close();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
    this.socket.terminate();
  }
}

/** `/_local/stats` of a running backend (admin key from its data directory). */
export async function backendStats(backend: Backend): Promise<Record<string, any>> {
  const { readFile } = await import("node:fs/promises");
  const path = await import("node:path");
  const adminKey = (await readFile(path.join(backend.dataDir, "admin-key"), "utf8")).trim();
  const response = await fetch(`${backend.url}/_local/stats`, {
    method: "POST",
    headers: { Authorization: `Convex ${adminKey}` },
  });
  if (!response.ok) throw new Error(`stats: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, any>;
}
