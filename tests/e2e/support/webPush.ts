/**
 * A push service on this machine for the browser tests: https on 127.0.0.1 with the
 * certificate the global setup made (only the backend trusts it), recording what the
 * `web-push` library posts; and a device's keys, made here so the test can decrypt.
 */
import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "@playwright/test";

export type Received = { path: string; headers: IncomingHttpHeaders; body: Buffer };

/** `status` answers each post by its path (201 unless told: a gone device's 410, say). */
export async function startPushService(
  tls: { key: string; cert: string },
  status: (path: string) => number = () => 201,
): Promise<{
  url: string;
  received: Received[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer(
    { key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status(req.url ?? "")).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A device's push keys (P-256 pair and auth secret), as a browser makes them. */
export function newDeviceKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString("base64url"), authKey: auth.toString("base64url") };
}

/**
 * A key and self-signed certificate for 127.0.0.1, written into `dir`, that a test's push service
 * serves https with (push services speak https); only the backend process is told to trust it.
 */
export function pushServiceTls(dir: string): { key: string; cert: string } {
  fs.mkdirSync(dir, { recursive: true });
  const tls = { key: path.join(dir, "key.pem"), cert: path.join(dir, "cert.pem") };
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", tls.key, "-out", tls.cert],
    ],
    { stdio: "ignore" },
  );
  return tls;
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** Decrypts an aes128gcm Web Push message (RFC 8291 over RFC 8188) with the device's keys. */
export function decryptPush(body: Buffer, device: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderKey]);
  const ikm = hmac(hmac(device.auth, shared), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with a 0x02 delimiter, then zero padding.
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("not a final Web Push record");
  return padded.subarray(0, end).toString("utf8");
}

/**
 * Chromium cannot reach a push service, so the page's PushManager hands out this
 * subscription instead (kept in localStorage across navigations; `unsubscribe` drops it).
 */
export async function stubPushManager(page: Page, sub: { endpoint: string; p256dh: string; auth: string }) {
  await page.addInitScript(({ endpoint, p256dh, auth }) => {
    const stored = "e2e-push-subscription";
    const bytes = (b64: string) =>
      Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
    const subscription = () => ({
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: (name: string) => bytes(name === "p256dh" ? p256dh : auth),
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => {
        localStorage.removeItem(stored);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function () {
      localStorage.setItem(stored, "1");
      return subscription() as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      return localStorage.getItem(stored) ? (subscription() as unknown as PushSubscription) : null;
    };
  }, sub);
}
