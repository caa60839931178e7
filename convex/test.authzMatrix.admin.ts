/** The authorization matrix's cells for mic claims, problem reports and the admin's functions. */
import { type Entry } from "./test.authzWorld";

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
  "claims:mine": { args: (w) => ({ micId: w.claimMic }), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "claims:ownerState": {
    ownerAnswerShows: false,
    args: (w) => ({ micId: w.ownerMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "claims:list": { args: () => ({}), anon: "nothing", other: "nothing", admin: "read", owner: "nothing" },
  "claims:revoke": {
    args: (w) => ({ id: w.approvedClaim }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "claims:review": {
    args: (w) => ({ id: w.ownerClaim, status: "approved" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "claims:updateOwnMic": {
    args: (w) => ({ micId: w.ownerMic, ...both }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "claims:setCancelledDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-12-02", cancelled: true }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "claims:setConfirmedDate": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-25", confirmed: true }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "reports:submit": {
    args: (w) => ({ micId: w.ownerMic, kind: "no_longer_runs" }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "reports:list": { args: () => ({}), anon: "nothing", other: "nothing", admin: "read", owner: "nothing" },
  "reports:resolve": {
    args: (w) => ({ id: w.ownerReport, action: "dismiss" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },

  // Admin
  "admin:listMics": {
    args: () => ({ search: "" }),
    anon: "nothing",
    other: "nothing",
    admin: "read",
    owner: "nothing",
  },
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
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "admin:deleteMic": {
    changesBystander: {
      why: "deleting the mic deletes everyone's favourites, schedule entries, reports and venue visits there, unlinks their sets and recounts their venues",
      mic: (w) => w.ownerMic,
      derived: ["userStats"],
    },
    args: (w) => ({ id: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "nothing",
  },
  "geocode:fixCoordinates": { args: () => ({}), anon: "nothing", other: "nothing", admin: "change", owner: "nothing" },
};
