/** The event details payload and the chosen venue, as the server validates
 * them (issue 5 contract: convex/model/events.ts). */
export type { EventDetails, VenueInput } from "@convex/model/events";

export type CostInfo = NonNullable<import("@convex/model/events").EventDetails["costInfo"]>;
