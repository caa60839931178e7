import { v } from "convex/values";
import { userMutation } from "./functions";
import * as Events from "./model/events";
import { enforceRateLimit } from "./rateLimits";

/** The add-event wizard's save: a new active mic or show in the scene list and
 * the creator's schedule (duplicate slots of the same creator are refused). */
export const create = userMutation({
  args: { venue: Events.venueInputValidator, details: Events.eventDetailsValidator },
  returns: v.object({ sceneItemId: v.id("sceneItems"), title: v.string() }),
  handler: async (ctx, args) => {
    await enforceRateLimit(ctx, "createMic", ctx.userId);
    const { sceneItemId, title } = await Events.createEvent(ctx, ctx.userId, args, Date.now());
    return { sceneItemId, title };
  },
});
