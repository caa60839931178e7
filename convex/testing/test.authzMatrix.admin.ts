/** The authorization matrix's cells for mic claims, problem reports and the admin's functions. */
import {
  ADMIN_CHANGES,
  ADMIN_READS,
  DELETING_THE_OWNERS_MIC,
  type Entry,
  OWNER_OR_ADMIN_CHANGES,
  SIGNED_IN_CHANGES,
  SIGNED_IN_READS,
} from "./test.authzWorld";

const firstPage = { paginationOpts: { numItems: 50, cursor: null } };
const both = { title: "Olive's Mic, edited", dayOfWeek: 4, startTimeLocal: "21:00" };

export const adminCells: Record<string, Entry> = {
  // Claims and reports
  "claims:submit": {
    args: (w) => ({ micId: w.claimMic, message: "I host it" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "nothing",
  },
  "claims:mine": { args: (w) => ({ micId: w.claimMic }), ...SIGNED_IN_READS },
  "claims:ownerState": {
    ownerAnswerShows: false,
    args: (w) => ({ micId: w.ownerMic }),
    ...SIGNED_IN_READS,
  },
  "claims:list": { args: () => ({ queue: "pending", ...firstPage }), ...ADMIN_READS },
  "claims:revoke": { args: (w) => ({ id: w.approvedClaim }), ...ADMIN_CHANGES },
  "claims:review": { args: (w) => ({ id: w.ownerClaim, status: "approved" }), ...ADMIN_CHANGES },
  "claims:denyMoot": { args: (w) => ({ micId: w.mootMic, reason: "Another host was approved." }), ...ADMIN_CHANGES },
  "claims:updateOwnMic": { args: (w) => ({ micId: w.ownerMic, ...both }), ...OWNER_OR_ADMIN_CHANGES },
  "claims:setCancelledDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-12-02", cancelled: true }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "claims:setConfirmedDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-25", confirmed: true }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "reports:submit": { args: (w) => ({ micId: w.ownerMic, kind: "no_longer_runs" }), ...SIGNED_IN_CHANGES },
  "reports:list": { args: () => firstPage, ...ADMIN_READS },
  "reports:resolve": { args: (w) => ({ id: w.ownerReport, action: "dismiss" }), ...ADMIN_CHANGES },

  // Admin
  "admin:listMics": { args: () => ({ search: "" }), ...ADMIN_READS },
  "admin:queueCounts": { args: () => ({}), ...ADMIN_READS },
  "admin:updateMic": {
    args: (w) => ({
      id: w.ownerMic,
      title: "Renamed by admin",
      venueName: "The Test Room",
      city: "New York",
      type: "open_mic",
      dayOfWeek: 3,
      startTimeLocal: "20:00",
      status: "active",
      costInfo: { type: "free" },
    }),
    ...ADMIN_CHANGES,
  },
  "admin:deleteMic": {
    changesBystander: DELETING_THE_OWNERS_MIC,
    args: (w) => ({ id: w.ownerMic }),
    ...ADMIN_CHANGES,
  },
  "geocode:fixCoordinates": { args: () => ({}), ...ADMIN_CHANGES },
};
