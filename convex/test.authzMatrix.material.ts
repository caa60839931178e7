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
};
