import { Triggers } from "convex-helpers/server/triggers";
import type { DataModel } from "./_generated/dataModel";
import { registerBitTriggers } from "./model/bitTriggers";
import { registerMicFollowerTriggers } from "./model/micFollowers";
import { registerMicNumberTriggers } from "./model/micNumberTriggers";
import { registerMicTriggers } from "./model/micTriggers";
import { registerNotificationTriggers } from "./model/notificationTriggers";
import { registerSeasonTriggers } from "./model/seasonTriggers";
import { registerStatsTriggers } from "./model/statsTriggers";
import { registerWeekStreakTriggers } from "./model/weekStreakTriggers";

/**
 * The one owner of derived data: every mutation builder in `functions.ts` wraps `ctx.db` with these
 * triggers (ESLint refuses the raw builders elsewhere), so each write updates what derives from it in
 * its own transaction. A table's triggers live in `model/<table>Triggers.ts`, registered below.
 */
export const triggers = new Triggers<DataModel>();

registerMicTriggers(triggers);
registerStatsTriggers(triggers);
registerBitTriggers(triggers);
// After the stats triggers: the week streak is stored on the stats row they create.
registerWeekStreakTriggers(triggers);
registerNotificationTriggers(triggers);
registerMicFollowerTriggers(triggers);
registerMicNumberTriggers(triggers);
registerSeasonTriggers(triggers);
