/**
 * Venues as the wizards see them: the distinct venues of the active scene
 * (the venue search without Google), the events at one venue, and similar
 * events by word overlap.
 */
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { haversineMeters, metersToMiles } from "../lib/geo";
import { compareWeeklySlots } from "../lib/time";
import { bestMatches, SIMILARITY_CANDIDATE_LIMIT } from "../lib/similarity";
import { toSceneItem, type SceneItem } from "./scene";

/** Items read by the venue search (grouped into venues afterwards). */
export const VENUE_SEARCH_LIMIT = 20;
/** Most events listed at one venue. */
export const EVENTS_AT_VENUE_LIMIT = 50;
/** How many similar events the event step offers. */
export const SIMILAR_LIMIT = 3;

export const venueResultValidator = v.object({
  venueName: v.string(),
  address: v.union(v.string(), v.null()),
  city: v.string(),
  googlePlaceId: v.union(v.string(), v.null()),
  latitude: v.union(v.number(), v.null()),
  longitude: v.union(v.number(), v.null()),
  timeZone: v.string(),
  /** Active events at this venue among the items read. */
  itemCount: v.number(),
});
export type VenueResult = Infer<typeof venueResultValidator>;

/** Convex full-text search looks at a bounded number of terms; keep queries inside it. */
const MAX_SEARCH_TERMS = 16;
const MAX_SEARCH_CHARS = 200;

/** The text as a search query: trimmed, at most 200 characters and 16 words. */
export function searchQueryText(text: string): string {
  return text.slice(0, MAX_SEARCH_CHARS).trim().split(/\s+/).slice(0, MAX_SEARCH_TERMS).join(" ");
}

async function searchActiveByVenueName(ctx: QueryCtx, text: string, limit: number): Promise<Doc<"sceneItems">[]> {
  return await ctx.db
    .query("sceneItems")
    .withSearchIndex("search_venue", (q) => q.search("venueName", searchQueryText(text)).eq("status", "active"))
    .take(limit);
}

/** Distinct venues (by name and address) of active items matching the text, best match first
 * (see {@link matchScore}). */
export async function searchVenues(ctx: QueryCtx, query: string): Promise<VenueResult[]> {
  const text = query.trim();
  if (text === "") return [];
  const items = await searchActiveByVenueName(ctx, text, VENUE_SEARCH_LIMIT);
  const venues = new Map<string, VenueResult>();
  for (const item of items) {
    const key = `${item.venueName.trim().toLowerCase()}|${(item.address ?? "").trim().toLowerCase()}`;
    const known = venues.get(key);
    if (known !== undefined) {
      known.itemCount += 1;
      // Keep the first known place id and coordinates of the venue.
      known.googlePlaceId ??= item.googlePlaceId ?? null;
      if (known.latitude === null && item.latitude !== undefined && item.longitude !== undefined) {
        known.latitude = item.latitude;
        known.longitude = item.longitude;
      }
      continue;
    }
    venues.set(key, {
      venueName: item.venueName,
      address: item.address ?? null,
      city: item.city,
      googlePlaceId: item.googlePlaceId ?? null,
      latitude: item.latitude ?? null,
      longitude: item.longitude ?? null,
      timeZone: item.timeZone,
      itemCount: 1,
    });
  }
  const ranked = [...venues.values()].map((venue, index) => ({
    venue,
    index,
    score: matchScore(text, venue.venueName),
  }));
  ranked.sort((a, b) => b.score - a.score || a.index - b.index);
  return ranked.map((r) => r.venue);
}

/**
 * How well a venue name answers what the comedian is typing: the whole text
 * inside the name counts most, then each typed word that starts a word of the
 * name (the last one may be half typed). Orders the search index's matches
 * the same way on every backend.
 */
export function matchScore(query: string, venueName: string): number {
  const q = query.trim().toLowerCase();
  const name = venueName.toLowerCase();
  const nameWords = name.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  const typed = q.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  const prefixHits = typed.filter((w) => nameWords.some((n) => n.startsWith(w))).length;
  return (name.includes(q) ? typed.length + 1 : 0) + prefixHits;
}

/**
 * Active events at a venue: by Google place id when given, else (or when no
 * item has that id) by the exact venue name; ordered by day of week then
 * start time.
 */
export async function eventsAtVenue(
  ctx: QueryCtx,
  args: { venueName: string; googlePlaceId?: string },
): Promise<SceneItem[]> {
  const placeId = args.googlePlaceId?.trim();
  const venueName = args.venueName.trim();
  let docs: Doc<"sceneItems">[] = [];
  if (placeId) {
    docs = await ctx.db
      .query("sceneItems")
      .withIndex("by_googlePlaceId", (q) => q.eq("googlePlaceId", placeId))
      .take(EVENTS_AT_VENUE_LIMIT);
  }
  // Items typed in by hand have no place id: fall back to the venue's name.
  if (docs.length === 0 && venueName !== "") {
    docs = await ctx.db
      .query("sceneItems")
      .withIndex("by_venueName", (q) => q.eq("venueName", venueName))
      .take(EVENTS_AT_VENUE_LIMIT);
  }
  return docs
    .filter((d) => d.status === "active")
    .map(toSceneItem)
    .sort(compareWeeklySlots);
}

/** How far a venue with a similar name may be from the chosen one and still be offered. */
export const NEAR_VENUE_MILES = 5;

/** Where the chosen venue is, as the wizard knows it: its city (or address), and its coordinates when known. */
export type VenuePlace = { city?: string; address?: string; latitude?: number; longitude?: number };

const cityKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Whether a scene item is near the chosen venue: within {@link NEAR_VENUE_MILES}
 * when both have coordinates, else in the same city (the item's city is the
 * chosen venue's city, or one of the comma-separated parts of its address).
 */
export function isNearVenue(item: Pick<Doc<"sceneItems">, "city" | "latitude" | "longitude">, place: VenuePlace) {
  if (
    item.latitude !== undefined &&
    item.longitude !== undefined &&
    place.latitude !== undefined &&
    place.longitude !== undefined
  ) {
    const meters = haversineMeters(
      { lat: item.latitude, lng: item.longitude },
      { lat: place.latitude, lng: place.longitude },
    );
    return metersToMiles(meters) <= NEAR_VENUE_MILES;
  }
  const city = cityKey(item.city);
  if (city === "") return false;
  const parts = [place.city ?? "", ...(place.address ?? "").split(","), ...(place.city ?? "").split(",")].map(cityKey);
  return parts.includes(city);
}

/**
 * Up to 3 active events near the chosen venue (see {@link isNearVenue}) whose
 * venue name shares enough words with `venueName` (score above 0.2), best
 * first, from up to 20 venue-name search matches. A venue with no city,
 * address or coordinates has none: nothing tells which are near.
 */
export async function similarEvents(ctx: QueryCtx, venueName: string, place: VenuePlace): Promise<SceneItem[]> {
  const text = venueName.trim();
  if (text === "") return [];
  const found = await searchActiveByVenueName(ctx, text, SIMILARITY_CANDIDATE_LIMIT);
  const candidates = found.filter((item) => isNearVenue(item, place));
  return bestMatches({ query: text, candidates, getText: (c) => c.venueName, limit: SIMILAR_LIMIT }).map(toSceneItem);
}
