/** The comedian's rough location for "nearby" venue search: kept in
 * localStorage under `userLocation` and reused while under an hour old
 *, the same key the scene's distance filter uses. */

import type { LatLng } from "@convex/lib/geo";

export type { LatLng };

const KEY = "userLocation";
export const LOCATION_MAX_AGE_MS = 60 * 60_000;

/** Geolocation for search: low accuracy, 10 s timeout, a fix up to 10 minutes old. */
export const SEARCH_POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 10_000,
  maximumAge: 10 * 60_000,
};

export const LOCATION_DENIED_MESSAGE = "Search will show all venues globally.";

/** The saved location if it is under an hour old at `nowMs`. */
export function readSavedLocation(
  nowMs: number,
  storage: Pick<Storage, "getItem"> | undefined = safeLocalStorage(),
): LatLng | null {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { lat?: unknown; lng?: unknown; ts?: unknown };
    if (typeof parsed.lat !== "number" || typeof parsed.lng !== "number") return null;
    if (typeof parsed.ts !== "number" || nowMs - parsed.ts > LOCATION_MAX_AGE_MS || parsed.ts > nowMs + 60_000)
      return null;
    return { lat: parsed.lat, lng: parsed.lng };
  } catch {
    return null;
  }
}

/** Saves a fresh location, keeping the scene's distance filter remembered in the same entry. */
export function saveLocation(
  location: LatLng,
  nowMs: number,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = safeLocalStorage(),
): void {
  try {
    let radiusMiles: unknown;
    try {
      radiusMiles = (JSON.parse(storage?.getItem(KEY) ?? "null") as { radiusMiles?: unknown } | null)?.radiusMiles;
    } catch {
      radiusMiles = undefined; // An unreadable entry is simply replaced.
    }
    storage?.setItem(
      KEY,
      JSON.stringify({ ...location, ts: nowMs, ...(radiusMiles === undefined ? {} : { radiusMiles }) }),
    );
  } catch {
    // Private mode or a full quota: the location still serves this visit.
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Asks the browser for its position; rejects with the GeolocationPositionError code (0 when unsupported). */
export function requestLocation(options: PositionOptions = SEARCH_POSITION_OPTIONS): Promise<LatLng> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === "undefined" || !("geolocation" in navigator)) {
      reject(Object.assign(new Error("Geolocation is not supported by this browser"), { code: 0 }));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude }),
      (err) => reject(Object.assign(new Error(err.message || "Unable to get your location."), { code: err.code })),
      options,
    );
  });
}
