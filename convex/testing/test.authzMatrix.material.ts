/** The authorization matrix's cells for a comedian's material: bits, set lists and ratings. Nobody but the owner reaches them, admins included. */
import { type Entry, OWNER_CHANGES, page, SIGNED_IN_CHANGES, SIGNED_IN_READS } from "./test.authzWorld";

/** Read only by the owner; anyone else gets null (an admin too). */
const OWNER_READS = { anon: "nothing", other: "nothing", admin: "nothing", owner: "read" } as const;

const bitInput = { title: "A new bit", notes: "premise", tags: ["crowd"], seconds: 60, status: "new" as const };

export const materialCells: Record<string, Entry> = {
  "bits:list": { args: () => ({ ...page, archived: false }), ...SIGNED_IN_READS },
  "bits:tags": { args: () => ({}), ...SIGNED_IN_READS },
  "bits:get": { args: (w) => ({ id: w.ownerBit }), ...OWNER_READS },
  "bits:create": { args: () => bitInput, ...SIGNED_IN_CHANGES },
  "bits:update": { args: (w) => ({ id: w.ownerBit, ...bitInput, title: "Renamed bit" }), ...OWNER_CHANGES },
  "bits:setArchived": { args: (w) => ({ id: w.ownerBit, archived: true }), ...OWNER_CHANGES },

  "setLists:list": { args: () => ({}), ...SIGNED_IN_READS },
  "setLists:get": { args: (w) => ({ id: w.ownerSetList }), ...OWNER_READS },
  "setLists:create": { args: () => ({ title: "Tonight", bitIds: [] }), ...SIGNED_IN_CHANGES },
  "setLists:update": {
    args: (w) => ({ id: w.ownerSetList, title: "Renamed set", bitIds: [w.ownerBit] }),
    ...OWNER_CHANGES,
  },
  "setLists:attach": {
    args: (w) => ({ id: w.ownerSetList, night: { micId: w.ownerMic, date: "2026-12-02" } }),
    ...OWNER_CHANGES,
  },
  "setLists:duplicate": { args: (w) => ({ id: w.ownerSetList }), ...OWNER_CHANGES },
  "setLists:remove": { args: (w) => ({ id: w.ownerSetList }), ...OWNER_CHANGES },

  "ratings:pending": { args: () => ({}), ...SIGNED_IN_READS },
  "ratings:rate": {
    args: (w) => ({ performanceId: w.ownerSet, ratings: [{ bitId: w.ownerBit, rating: "landed", note: "big laugh" }] }),
    ...OWNER_CHANGES,
  },
  "ratings:skip": { args: (w) => ({ performanceId: w.ownerSet }), ...OWNER_CHANGES },
  "ratings:forSet": { args: (w) => ({ performanceId: w.ownerSet }), ...OWNER_READS },
  "ratings:rooms": { args: (w) => ({ bitId: w.ownerBit }), ...OWNER_READS },
  "ratings:notDoneAt": { args: (w) => ({ micId: w.ownerMic }), ...SIGNED_IN_READS },
};
