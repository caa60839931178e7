/** The authorization matrix's cells for the live list (nightLists). */
import { type Entry, OWNER_OR_ADMIN_CHANGES, PUBLIC_READ, SIGNED_IN_CHANGES, SIGNED_IN_READS } from "./test.authzWorld";

export const listCells: Record<string, Entry> = {
  // The live list
  "nightLists:current": { args: (w) => ({ micId: w.ownerMic }), ...PUBLIC_READ },
  "nightLists:viewer": { args: (w) => ({ micId: w.ownerMic }), ...PUBLIC_READ },
  "nightLists:myRecent": { args: () => ({}), ...SIGNED_IN_READS },
  // A mic's numbers from its lists
  "micNumbers:forMic": { args: (w) => ({ micId: w.ownerMic }), ...PUBLIC_READ },
  "nightLists:open": {
    args: (w) => ({ micId: w.ownerMic, date: "2026-11-26", spots: 10, lightMinutes: 1, mode: "first_come" }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:signUp": { args: (w) => ({ listId: w.claimList }), ...SIGNED_IN_CHANGES },
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
  "nightLists:addWalkIn": { args: (w) => ({ listId: w.ownerList, name: "Walk-in Wendy" }), ...OWNER_OR_ADMIN_CHANGES },
  "nightLists:move": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, toIndex: 1, version: 1 }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:bump": {
    changesBystander: {
      why: "bumping a spot moves the spots after it up",
      mic: (w) => w.ownerMic,
    },
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:remove": {
    changesBystander: {
      why: "taking a name off moves the spots after it up",
      mic: (w) => w.ownerMic,
    },
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:renameWalkIn": {
    args: (w) => ({ listId: w.ownerList, spotId: w.walkInSpot, name: "Walk-in Walter" }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:noShow": {
    args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot, version: 1 }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:draw": {
    changesBystander: {
      why: "the draw places every spot in the pool",
      mic: (w) => w.noCoordsMic,
    },
    args: (w) => ({ listId: w.lotteryList }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:upNow": { args: (w) => ({ listId: w.ownerList, spotId: w.ownerSpot }), ...OWNER_OR_ADMIN_CHANGES },
  "nightLists:done": {
    args: (w) => ({ listId: w.runningList, spotId: w.runningSpot, useTimer: false }),
    ...OWNER_OR_ADMIN_CHANGES,
  },
  "nightLists:close": { args: (w) => ({ listId: w.ownerList }), ...OWNER_OR_ADMIN_CHANGES },
  "nightLists:reopen": { args: (w) => ({ listId: w.closedList }), ...OWNER_OR_ADMIN_CHANGES },
};
