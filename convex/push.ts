"use node";
/**
 * Web Push delivery: encrypts a notice for each of the comedian's devices (RFC 8291) and
 * posts it to the device's push service with the deployment's VAPID signature, through
 * the `web-push` library. A device the push service says is gone (404, 410) is removed.
 */
import { v } from "convex/values";
import webpush from "web-push";
import { internal } from "./_generated/api";
import { internalAction } from "./_generated/server";
import { vapidSettings } from "./model/notifications";

/** How long a push service keeps a notice for a device that is offline (an hour: later is stale). */
const TTL_SECONDS = 60 * 60;

export const deliver = internalAction({
  args: { notificationId: v.id("notifications") },
  returns: v.object({ sent: v.number(), gone: v.number(), failed: v.number() }),
  handler: async (ctx, { notificationId }) => {
    const none = { sent: 0, gone: 0, failed: 0 };
    const vapid = vapidSettings();
    if (vapid === null) return none;
    const job = await ctx.runQuery(internal.notifications.deliveryJob, { notificationId });
    if (job === null) return none;
    const payload = JSON.stringify(job.payload);
    const gone: string[] = [];
    let sent = 0;
    let failed = 0;
    await Promise.all(
      job.devices.map(async (device) => {
        try {
          await webpush.sendNotification(
            { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
            payload,
            {
              vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
              TTL: TTL_SECONDS,
              urgency: "high",
              timeout: 10_000,
            },
          );
          sent++;
        } catch (error) {
          const status = error instanceof webpush.WebPushError ? error.statusCode : null;
          if (status === 404 || status === 410) gone.push(device.endpoint);
          else {
            failed++;
            console.warn(`push to a device failed (${status ?? (error as Error).message})`);
          }
        }
      }),
    );
    await ctx.runMutation(internal.notifications.deliveryDone, { notificationId, gone });
    return { sent, gone: gone.length, failed };
  },
});
