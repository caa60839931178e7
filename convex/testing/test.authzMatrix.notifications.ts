/** The authorization matrix's cells for notifications: the inbox, choices, muted mics and devices. */
import {
  type Entry,
  OWNER_CHANGES,
  OWNER_ENDPOINT,
  PUBLIC_READ,
  SIGNED_IN_CHANGES,
  SIGNED_IN_OWN,
  SIGNED_IN_READS,
} from "./test.authzWorld";

export const notificationCells: Record<string, Entry> = {
  "notifications:inbox": { args: () => ({}), ...SIGNED_IN_READS },
  "notifications:inboxPage": { args: () => ({ paginationOpts: { numItems: 10, cursor: null } }), ...SIGNED_IN_READS },
  "notifications:unreadCount": { args: () => ({}), ownerAnswerShows: false, ...SIGNED_IN_READS },
  "notifications:markRead": { args: (w) => ({ id: w.ownerNotice }), ...OWNER_CHANGES },
  "notifications:markAllRead": { args: () => ({}), ...SIGNED_IN_CHANGES },
  "notifications:preferences": { args: () => ({}), ownerAnswerShows: false, ...SIGNED_IN_READS },
  "notifications:savePreferences": {
    args: () => ({
      listOpens: true,
      nights: false,
      lottery: true,
      onDeck: true,
      claims: true,
      sets: true,
      leadMinutes: 60,
      quietStart: "23:00",
      quietEnd: "08:00",
      timeZone: "America/Chicago",
    }),
    ...SIGNED_IN_CHANGES,
  },
  "notifications:micMuted": { args: (w) => ({ micId: w.ownerMic }), ...SIGNED_IN_OWN },
  "notifications:setMicMuted": { args: (w) => ({ micId: w.ownerMic, muted: true }), ...SIGNED_IN_CHANGES },
  "notifications:pushConfig": { args: () => ({}), ownerAnswerShows: false, ...PUBLIC_READ },
  "notifications:subscribe": {
    args: () => ({
      subscription: {
        endpoint: "https://fcm.googleapis.com/fcm/send/new-phone",
        keys: { p256dh: "BNewPhone", auth: "newphone" },
      },
    }),
    ...SIGNED_IN_CHANGES,
  },
  "notifications:unsubscribe": { args: () => ({ endpoint: OWNER_ENDPOINT }), ...SIGNED_IN_CHANGES },
  "notifications:deviceSubscribed": {
    args: () => ({ endpoint: OWNER_ENDPOINT }),
    ownerAnswerShows: false,
    ...SIGNED_IN_READS,
  },
};
