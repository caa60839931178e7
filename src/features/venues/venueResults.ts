import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { VenueInput } from "@convex/model/events";

export type SceneVenueResult = FunctionReturnType<typeof api.venues.search>[number];

export const MIN_CHARS_MESSAGE = "Type at least 3 characters";

/** The hint under the search box while the text is too short to search, else null. */
export function searchHint(text: string, minChars: number): string | null {
  const length = text.trim().length;
  if (length === 0 || length >= minChars) return null;
  return minChars === 3 ? MIN_CHARS_MESSAGE : `Type at least ${minChars} characters`;
}

/** A scene venue as the wizards keep it: the server's VenueInput, without nulls. */
export function sceneResultToVenue(r: SceneVenueResult): VenueInput {
  const venue: VenueInput = { venueName: r.venueName, city: r.city, timeZone: r.timeZone };
  if (r.address !== null) venue.address = r.address;
  if (r.googlePlaceId !== null) venue.googlePlaceId = r.googlePlaceId;
  if (r.latitude !== null && r.longitude !== null) {
    venue.latitude = r.latitude;
    venue.longitude = r.longitude;
  }
  return venue;
}

/** A venue typed by hand: trimmed, empty fields left out, coordinates only when known. */
export function manualVenue(
  input: { venueName: string; address: string; city: string },
  here: { lat: number; lng: number } | null,
  timeZone: string,
): VenueInput {
  const venue: VenueInput = { venueName: input.venueName.trim(), timeZone };
  const address = input.address.trim();
  const city = input.city.trim();
  if (address) venue.address = address;
  if (city) venue.city = city;
  if (here) {
    venue.latitude = here.lat;
    venue.longitude = here.lng;
  }
  return venue;
}
