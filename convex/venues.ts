import { v } from "convex/values";
import { publicQuery } from "./functions";
import { sceneItemValidator } from "./model/scene";
import * as Venues from "./model/venues";
import { MIC_LIMITS } from "./lib/micRules";
import { assertLatLng } from "./lib/geo";
import { assertMaxLength, invalid } from "./lib/textRules";

/** Venues already in the scene matching the text (the venue search without Google). */
export const search = publicQuery({
  args: { query: v.string() },
  returns: v.array(Venues.venueResultValidator),
  handler: async (ctx, { query }) => {
    assertMaxLength(query.trim(), { label: "Search", max: MIC_LIMITS.address });
    return await Venues.searchVenues(ctx, query);
  },
});

/** Active events at a venue, by place id or name, ordered by day of week. */
export const eventsAt = publicQuery({
  args: { venueName: v.string(), googlePlaceId: v.optional(v.string()) },
  returns: v.array(sceneItemValidator),
  handler: async (ctx, args) => {
    assertMaxLength(args.venueName.trim(), { label: "Venue name", max: MIC_LIMITS.venueName });
    if (args.googlePlaceId !== undefined)
      assertMaxLength(args.googlePlaceId.trim(), { label: "Place id", max: MIC_LIMITS.googlePlaceId });
    return await Venues.eventsAtVenue(ctx, args);
  },
});

/** Up to 3 active events at venues with a similar name (word overlap above 0.2) near the chosen venue
 * (same city, or within a few miles when both have coordinates). */
export const similar = publicQuery({
  args: {
    venueName: v.string(),
    city: v.optional(v.string()),
    address: v.optional(v.string()),
    latitude: v.optional(v.number()),
    longitude: v.optional(v.number()),
  },
  returns: v.array(sceneItemValidator),
  handler: async (ctx, { venueName, ...place }) => {
    assertMaxLength(venueName.trim(), { label: "Venue name", max: MIC_LIMITS.venueName });
    if (place.city !== undefined) assertMaxLength(place.city, { label: "City", max: MIC_LIMITS.city });
    if (place.address !== undefined) assertMaxLength(place.address, { label: "Address", max: MIC_LIMITS.address });
    if ((place.latitude === undefined) !== (place.longitude === undefined)) invalid("Give both latitude and longitude");
    if (place.latitude !== undefined && place.longitude !== undefined) assertLatLng(place.latitude, place.longitude);
    return await Venues.similarEvents(ctx, venueName, place);
  },
});
