/**
 * Web Push at its network edge: the local backend runs the app's convex/ folder with
 * VAPID keys set, and a push service stand-in on this machine receives what the
 * `web-push` library sends from the "use node" action. The test made the device's
 * keys, so it checks the VAPID signature and decrypts the message itself (RFC 8291),
 * and a device the push service calls gone (410) is removed.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { importJWK, jwtVerify } from "jose";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ConvexClient } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { defaultPrefs } from "@convex/model/notifications";
import { decryptPush, newDeviceKeys, pushServiceTls, type Received, startPushService } from "../e2e/support/webPush";
import { repoRoot, startBackend, tempDir, waitFor, type Backend } from "./harness";

let backend: Backend;
let pushService: Awaited<ReturnType<typeof startPushService>>;
let pushUrl: string;
let received: Received[];
let certDir: string;
const vapid = webpush.generateVAPIDKeys();
const SUBJECT = "mailto:ops@stagetime.example";

beforeAll(async () => {
  // Push services speak https: a certificate for 127.0.0.1 that only the backend process trusts.
  const files = pushServiceTls((certDir = await tempDir()));
  // A device the push service no longer knows answers 410 Gone.
  pushService = await startPushService(files, (path) => (path.startsWith("/gone/") ? 410 : 201));
  ({ url: pushUrl, received } = pushService);
  backend = await startBackend({
    functionsDir: path.join(repoRoot, "convex"),
    env: { NODE_EXTRA_CA_CERTS: files.cert },
  });
  for (const [name, value] of [
    ["VAPID_PUBLIC_KEY", vapid.publicKey],
    ["VAPID_PRIVATE_KEY", vapid.privateKey],
    ["VAPID_SUBJECT", SUBJECT],
    // The push service stand-in runs on this machine, which only a deployment's own list allows.
    ["PUSH_ENDPOINT_HOSTS", "127.0.0.1"],
  ]) {
    await backend.cli(["env", "set", name, value]);
  }
}, 120_000);

afterAll(async () => {
  await backend?.dispose();
  await pushService?.close();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

async function signUp(email: string): Promise<ConvexClient> {
  const result = (await backend.httpClient().action(api.auth.signIn, {
    provider: "password",
    params: { email, password: "punchline-42", flow: "signUp" },
  })) as { tokens?: { token: string } | null };
  const token = result.tokens?.token;
  if (!token) throw new Error(`sign-up of ${email} issued no token`);
  const client = backend.client();
  await new Promise<void>((resolve, reject) => {
    client.setAuth(
      async () => token,
      (ok) => (ok ? resolve() : reject(new Error("token refused"))),
    );
  });
  return client;
}

async function run<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await backend.cli(["run", name, JSON.stringify(args)]);
  if (result.code !== 0) throw new Error(`run ${name} failed:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as T;
}

/** A browser's push subscription: its own P-256 key pair and auth secret, as a device makes them. */
function newDevice(endpoint: string) {
  const keys = newDeviceKeys();
  return { ...keys, subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authKey } } };
}

describe("Web Push through a push service on this machine", () => {
  test("a claim decision reaches the claimant's device signed and encrypted, once; a gone device is removed", async () => {
    const admin = await signUp("push-admin@example.com");
    await run("admin:setAdmin", { email: "push-admin@example.com", isAdmin: true });
    const comic = await signUp("push-comic@example.com");
    const phone = newDevice(`${pushUrl}/ok/phone-1`);
    const oldTablet = newDevice(`${pushUrl}/gone/tablet-1`);
    await comic.mutation(api.notifications.subscribe, { subscription: phone.subscription });
    await comic.mutation(api.notifications.subscribe, { subscription: oldTablet.subscription });
    expect(await comic.query(api.notifications.pushConfig, {})).toEqual({ publicKey: vapid.publicKey });

    const micId = await run<Id<"sceneItems">>("fixtures:insertSceneItem", {
      title: "Push Mic",
      venueName: "Push Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      recurrence: "weekly",
      timeZone: "America/New_York",
    });
    const claimId = await comic.mutation(api.claims.submit, { micId });
    await admin.mutation(api.claims.review, { id: claimId, status: "approved" });

    await waitFor(() => received.length >= 2, { timeoutMs: 30_000 }).catch((error: Error) => {
      throw new Error(`${error.message}\n${backend.output.slice(-4000)}`);
    });
    const toPhone = received.filter((r) => r.path === "/ok/phone-1");
    const toTablet = received.filter((r) => r.path === "/gone/tablet-1");
    expect(toPhone).toHaveLength(1);
    expect(toTablet).toHaveLength(1);

    const [request] = toPhone;
    expect(request.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    // VAPID (RFC 8292): a JWT for this push service's origin, signed with the deployment's key.
    const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(String(request.headers.authorization));
    expect(match?.[2]).toBe(vapid.publicKey);
    const point = Buffer.from(vapid.publicKey, "base64url");
    const key = await importJWK(
      {
        kty: "EC",
        crv: "P-256",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33, 65).toString("base64url"),
      },
      "ES256",
    );
    const { payload: claims } = await jwtVerify(match![1], key, { algorithms: ["ES256"] });
    expect(claims.aud).toBe(pushUrl);
    expect(claims.sub).toBe(SUBJECT);

    const message = JSON.parse(decryptPush(request.body, phone)) as Record<string, string>;
    expect(message).toMatchObject({
      title: "Your claim was approved",
      url: `/event/${micId}`,
      body: "You now manage Push Mic: open its list, cancel or confirm nights.",
    });
    // The inbox holds the same notice, live.
    const inbox = await comic.query(api.notifications.inbox, {});
    expect(inbox.entries.map((e) => e.title)).toEqual(["Your claim was approved"]);

    // The 410 removed the tablet; the phone stays.
    await waitFor(
      async () =>
        !(await comic.query(api.notifications.deviceSubscribed, { endpoint: oldTablet.subscription.endpoint })),
      { timeoutMs: 30_000 },
    );
    expect(await comic.query(api.notifications.deviceSubscribed, { endpoint: phone.subscription.endpoint })).toBe(true);

    // The admin was told about the claim in the inbox; with no device, nothing was pushed for them.
    const adminInbox = await admin.query(api.notifications.inbox, {});
    expect(adminInbox.entries.map((e) => e.title)).toEqual(["New claim to review"]);
    expect(received).toHaveLength(2);
  });
  test("a muted mic, a topic turned off and quiet hours push nothing; the same notice reaches a device without them", async () => {
    const micId = await run<Id<"sceneItems">>("fixtures:insertSceneItem", {
      title: "Choices Mic",
      venueName: "Choices Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: 4,
      startTimeLocal: "20:00",
      recurrence: "weekly",
      timeZone: "America/New_York",
    });
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const prefs = defaultPrefs("UTC");
    const people = ["control", "quiet", "muted", "off"] as const;
    const clients = new Map<string, ConvexClient>();
    for (const who of people) {
      const client = await signUp(`push-${who}@example.com`);
      await client.mutation(api.notifications.subscribe, {
        subscription: newDevice(`${pushUrl}/ok/${who}`).subscription,
      });
      clients.set(who, client);
    }
    // Quiet hours from an hour ago to an hour from now, in UTC.
    const now = Date.now();
    await clients.get("quiet")!.mutation(api.notifications.savePreferences, {
      ...prefs,
      quietStart: hhmm(now - 3_600_000),
      quietEnd: hhmm(now + 3_600_000),
    });
    await clients.get("muted")!.mutation(api.notifications.setMicMuted, { micId, muted: true });
    await clients.get("off")!.mutation(api.notifications.savePreferences, { ...prefs, listOpens: false });

    // The same list-opening notice about the mic, through the app's own notify (the control last).
    const told: Record<string, number> = {};
    for (const who of ["quiet", "muted", "off", "control"] as const) {
      told[who] = await run<number>("fixtures:notifyAccount", {
        email: `push-${who}@example.com`,
        prefix: "Choices Mic: list in 30 min",
        count: 1,
        url: `/event/${micId}`,
        kind: "list_open",
        micId,
      });
    }
    // Quiet hours keep the inbox entry and hold the push; a mute or a topic turned off skips both.
    expect(told).toEqual({ quiet: 1, muted: 0, off: 0, control: 1 });
    const ours = () => received.filter((r) => people.some((who) => r.path === `/ok/${who}`));
    await waitFor(() => ours().length >= 1, { timeoutMs: 30_000 });
    // Give any wrongly queued push time to arrive, then check only the control's device was posted to.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(ours().map((r) => r.path)).toEqual(["/ok/control"]);
    const quietInbox = await clients.get("quiet")!.query(api.notifications.inbox, {});
    expect(quietInbox.entries.map((e) => e.title)).toEqual(["Choices Mic: list in 30 min 1"]);
    for (const client of clients.values()) await client.close();
  });
});
