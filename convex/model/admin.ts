import type { Infer } from "convex/values";
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError, ErrorCode } from "../errors";
import { assertLatLng } from "../lib/geo";
import {
  micCity,
  micHostName,
  micNotes,
  micShowLink,
  micSignupLink,
  micTitle,
  micVenueName,
  normalizeCostInfo,
  normalizeDayOfWeek,
  normalizeTimeOfDay,
} from "../lib/micRules";
import { assertMaxLength } from "../lib/textRules";
import { costInfo as costInfoValidator, sceneItemStatus, sceneItemType } from "../schema";
import { matchesEveryTerm, searchTerms } from "../lib/sceneSearch";
import { SEARCH_MAX_TERMS, toSceneItem, type SceneItem } from "./scene";

/** Most items the admin list returns (newest first). */
export const ADMIN_LIST_LIMIT = 500;
/** Longest text the admin list searches for. */
export const MAX_SEARCH_LENGTH = 200;
export type CostInfo = Infer<typeof costInfoValidator>;

/** Search results read to find the admin list's matches (under the search index's 1,024). */
const ADMIN_SEARCH_READ = 2 * ADMIN_LIST_LIMIT;

/**
 * Every item, both statuses, newest first; with a search, the items whose
 * title, venue or city match it by the scene's one rule (every word starts a
 * word of them, lib/sceneSearch). The search index is queried without its
 * status filter so inactive items are found too.
 */
export async function listMics(ctx: QueryCtx, search: string | undefined): Promise<SceneItem[]> {
  if (search !== undefined) assertMaxLength(search, { label: "Search", max: MAX_SEARCH_LENGTH });
  const text = search?.trim() ?? "";
  if (text.length === 0) {
    const docs = await ctx.db.query("sceneItems").withIndex("by_creation_time").order("desc").take(ADMIN_LIST_LIMIT);
    return docs.map(toSceneItem);
  }
  const terms = searchTerms(text);
  if (terms.length === 0) return [];
  const docs = await ctx.db
    .query("sceneItems")
    .withSearchIndex("search_text", (q) => q.search("searchText", terms.slice(0, SEARCH_MAX_TERMS).join(" ")))
    .take(ADMIN_SEARCH_READ);
  return docs
    .filter((doc) => matchesEveryTerm(doc.searchText, terms))
    .sort((a, b) => b._creationTime - a._creationTime)
    .slice(0, ADMIN_LIST_LIMIT)
    .map(toSceneItem);
}

/** What an admin may change on a mic: the spec's fields plus the host's links,
 * host name and notes (left out = unchanged, empty = cleared), so an admin can
 * repair what a host or creator wrote. */
export const adminMicEditValidator = {
  id: v.id("sceneItems"),
  title: v.string(),
  venueName: v.string(),
  city: v.string(),
  type: sceneItemType,
  dayOfWeek: v.union(v.number(), v.null()),
  startTimeLocal: v.string(),
  status: sceneItemStatus,
  costInfo: v.optional(v.union(costInfoValidator, v.null())),
  signupLink: v.optional(v.string()),
  showLink: v.optional(v.string()),
  hostName: v.optional(v.string()),
  notes: v.optional(v.string()),
};

export type AdminMicEdit = {
  id: Id<"sceneItems">;
  title: string;
  venueName: string;
  city: string;
  type: Doc<"sceneItems">["type"];
  dayOfWeek: number | null;
  startTimeLocal: string;
  status: Doc<"sceneItems">["status"];
  costInfo?: CostInfo | null;
  signupLink?: string;
  showLink?: string;
  hostName?: string;
  notes?: string;
};

/**
 * Applies an admin edit. Cost info belongs to open mics only: an open mic
 * keeps the given cost (else its current one, else free); any other type
 * clears it. The search text and the landing counts follow by themselves
 * (model/micTriggers).
 */
export async function updateMic(ctx: MutationCtx, edit: AdminMicEdit, nowMs: number): Promise<SceneItem> {
  const item = await ctx.db.get("sceneItems", edit.id);
  if (item === null) throw appError(ErrorCode.NOT_FOUND, "Event not found");
  const title = micTitle(edit.title);
  const venueName = micVenueName(edit.venueName, "Venue");
  const city = micCity(edit.city);
  const dayOfWeek = normalizeDayOfWeek(edit.dayOfWeek);
  const startTimeLocal = normalizeTimeOfDay(edit.startTimeLocal, "Start time must be a time like 19:30");
  const costInfo =
    edit.type === "open_mic" ? normalizeCostInfo(edit.costInfo ?? item.costInfo ?? { type: "free" }) : null;
  const patch = {
    title,
    venueName,
    city,
    type: edit.type,
    dayOfWeek,
    startTimeLocal,
    status: edit.status,
    costInfo,
    ...(edit.signupLink === undefined ? {} : { signupLink: micSignupLink(edit.signupLink, "Sign-up link") }),
    ...(edit.showLink === undefined ? {} : { showLink: micShowLink(edit.showLink) }),
    ...(edit.hostName === undefined ? {} : { hostName: micHostName(edit.hostName) }),
    ...(edit.notes === undefined ? {} : { notes: micNotes(edit.notes) }),
    // An admin's edit counts as a confirmation for the freshness badge.
    lastConfirmedAt: nowMs,
  };
  await ctx.db.patch("sceneItems", edit.id, patch);
  return toSceneItem((await ctx.db.get("sceneItems", edit.id))!);
}

/** Sets a mic active or inactive (the landing counts follow, model/micTriggers). */
export async function setMicStatus(
  ctx: MutationCtx,
  item: Doc<"sceneItems">,
  status: Doc<"sceneItems">["status"],
): Promise<void> {
  if (item.status === status) return;
  await ctx.db.patch("sceneItems", item._id, { status });
}

/** Google Geocoding endpoint. */
export const GEOCODE_URL = "https://maps.googleapis.com/maps/api/geocode/json";
/** At most this many geocoding requests start per second. */
export const GEOCODE_REQUESTS_PER_SECOND = 5;
export const MISSING_KEY_REASON = "GOOGLE_MAPS_API_KEY is not set";

/** An item waiting for coordinates, as the geocoding action sees it. */
export type GeocodeCandidate = {
  id: Id<"sceneItems">;
  title: string;
  venueName: string;
  city: string;
  address?: string;
};

export type GeocodeResult = { ok: true; latitude: number; longitude: number } | { ok: false; reason: string };

/** What Google is asked to find: the stored address, else "venue, city". */
export function geocodeQuery(item: Pick<GeocodeCandidate, "venueName" | "city" | "address">): string {
  const address = item.address?.trim();
  if (address) return address;
  return [item.venueName.trim(), item.city.trim()].filter(Boolean).join(", ");
}

/**
 * Geocodes one address with Google. Never throws: a non-OK status
 * (ZERO_RESULTS, OVER_QUERY_LIMIT, REQUEST_DENIED...), an HTTP error or a
 * network failure comes back as a reason.
 */
export async function geocodeAddress(address: string, apiKey: string): Promise<GeocodeResult> {
  const url = `${GEOCODE_URL}?address=${encodeURIComponent(address)}&key=${encodeURIComponent(apiKey)}`;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    return { ok: false, reason: `Network error: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!response.ok) return { ok: false, reason: `HTTP ${response.status}` };
  let body: {
    status?: string;
    error_message?: string;
    results?: { geometry?: { location?: { lat?: unknown; lng?: unknown } } }[];
  };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    return { ok: false, reason: "Invalid response from the geocoding service" };
  }
  const status = body.status ?? "UNKNOWN_ERROR";
  if (status !== "OK") {
    return { ok: false, reason: body.error_message ? `${status}: ${body.error_message}` : status };
  }
  const location = body.results?.[0]?.geometry?.location;
  const lat = location?.lat;
  const lng = location?.lng;
  if (typeof lat !== "number" || typeof lng !== "number" || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    return { ok: false, reason: "ZERO_RESULTS" };
  }
  return { ok: true, latitude: lat, longitude: lng };
}

/** Stores geocoded coordinates on an item that still exists (its geohash follows, model/micTriggers). */
export async function setCoordinates(
  ctx: MutationCtx,
  { id, latitude, longitude }: { id: Id<"sceneItems">; latitude: number; longitude: number },
): Promise<boolean> {
  assertLatLng(latitude, longitude);
  const item = await ctx.db.get("sceneItems", id);
  if (item === null) return false;
  await ctx.db.patch("sceneItems", id, { latitude, longitude });
  return true;
}
