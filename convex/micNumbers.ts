import { v } from "convex/values";
import { publicQuery } from "./functions";
import * as MicNumbers from "./model/micNumbers";

/** A mic's numbers from its own latest lists (aggregates only), with the caller's own draws when signed in. */
export const forMic = publicQuery({
  args: { micId: v.id("sceneItems") },
  returns: MicNumbers.micNumbersValidator,
  handler: async (ctx, { micId }) => await MicNumbers.micNumbers(ctx, { micId, viewer: ctx.userId }),
});
