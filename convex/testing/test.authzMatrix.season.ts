/** The authorization matrix's cells for a season in review and its public links. */
import { type Entry, OWNER_CHANGES, SIGNED_IN_CHANGES, SIGNED_IN_READS } from "./test.authzWorld";

export const seasonCells: Record<string, Entry> = {
  "season:mine": { args: () => ({ from: "2026-01", to: "2026-12", today: "2026-11-25" }), ...SIGNED_IN_READS },
  "season:shares": { args: () => ({}), ...SIGNED_IN_READS },
  "season:createShare": { args: () => ({ from: "2026-01", to: "2026-06", fields: ["sets"] }), ...SIGNED_IN_CHANGES },
  "season:revokeShare": { args: (w) => ({ id: w.ownerShare }), ...OWNER_CHANGES },
  // Whoever holds the token sees the figures the owner chose; nothing changes.
  "season:openShared": {
    args: (w) => ({ token: w.ownerShareToken }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
};
