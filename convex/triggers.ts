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
 * The one owner of derived data. Every mutation builder in `convex/functions.ts`
 * (public, user, admin and internal) wraps `ctx.db` with these triggers, so a
 * write to a source table updates what is derived from it in the same
 * transaction, whichever function made the write. ESLint refuses `mutation` and
 * `internalMutation` from `_generated/server` outside `functions.ts`, so a new
 * write path cannot skip them.
 *
 * Register a table's triggers in its model module (`model/<table>Triggers.ts`,
 * exporting `register<Name>Triggers(triggers)`) and call it below.
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
