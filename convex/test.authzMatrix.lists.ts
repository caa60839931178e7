/** The authorization matrix's cells for the live list (nightLists). */
import { type Entry } from "./test.authzWorld";

export const listCells: Record<string, Entry> = {
  // The live list
  "nightLists:current": {
    args: (w) => ({ micId: w.ownerMic, sinceDate: "2026-11-24" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "nightLists:myRecent": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "nightLists:open": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-26", spots: 10, lightMinutes: 1, mode: "first_come" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:signUp": {
    args: (w) => ({ listId: w.claimList }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "nightLists:dropOut": {
    changesBystander: {
      why: "dropping out moves the spots after it up",
      mic: (w) => w.noCoordsMic,
    },
    args: (w) => ({ listId: w.lotteryList }),
    anon: "nothing",
    other: "own",
    admin: "nothing",
    owner: "change",
  },
  "nightLists:addWalkIn": {
    args: (w) => ({ listId: w.ownerList, name: "Walk-in Wendy" }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:move": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, toIndex: 1, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:bump": {
    changesBystander: {
      why: "bumping a spot moves the spots after it up",
      mic: (w) => w.ownerMic,
    },
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:noShow": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:draw": {
    changesBystander: {
      why: "the draw places every spot in the pool",
      mic: (w) => w.noCoordsMic,
    },
    args: (w) => ({ listId: w.lotteryList }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:upNow": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:done": {
    args: (w) => ({ listId: w.runningList, spotId: w.runningSpot, useTimer: false }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "nightLists:close": {
    args: (w) => ({ listId: w.ownerList }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
};
