// Relative, not @convex: vite.config.ts loads this file before its aliases apply.
import type { LatLng } from "../../../../convex/lib/geo";

/** The spec's wording for each way the browser can fail to give a location. */
export const LOCATION_MESSAGES = {
  unsupported: "Geolocation is not supported by this browser",
  denied: "Location access denied. Please enable location services in your browser settings and try again.",
  unavailable: "Location unavailable. Please check your device's location settings and try again.",
  timeout: "Location request timed out. Please try again.",
  other: "Unable to get your location.",
} as const;

export const LOCATION_TOAST_TITLE = "Location access required";
export const LOCATION_DENIED_HINT = "Search will show all venues globally.";

/** A failed location request, with the browser's error code (1 denied, 2
 * unavailable, 3 timeout; 0 for an unsupported browser or anything else). */
export class LocationError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = "LocationError";
  }

  get denied(): boolean {
    return this.code === 1;
  }
}

export function locationErrorMessage(code: number): string {
  switch (code) {
    case 1:
      return LOCATION_MESSAGES.denied;
    case 2:
      return LOCATION_MESSAGES.unavailable;
    case 3:
      return LOCATION_MESSAGES.timeout;
    default:
      return LOCATION_MESSAGES.other;
  }
}

/** Options of the check-in's location request: a fresh, precise fix. */
export const CHECK_IN_POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: true,
  timeout: 15_000,
  maximumAge: 30_000,
};

/** Options of the distance filter's request: a rough, possibly cached fix is enough. */
export const FILTER_POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 10_000,
  maximumAge: 10 * 60_000,
};

/** Asks the browser for its position; rejects with a {@link LocationError}. */
export function getCurrentLocation(options: PositionOptions): Promise<LatLng> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === "undefined" || !("geolocation" in navigator)) {
      reject(new LocationError(LOCATION_MESSAGES.unsupported, 0));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude }),
      (err) => reject(new LocationError(locationErrorMessage(err.code), err.code)),
      options,
    );
  });
}

/** The localStorage key of the saved location (and of the distance filter left on, see rememberDistanceFilter). */
export const LOCATION_KEY = "userLocation";
/** How long a saved location is used without asking the browser again. */
export const LOCATION_MAX_AGE_MS = 60 * 60_000;
const CACHE_KEY = LOCATION_KEY;
const CACHE_MAX_AGE_MS = LOCATION_MAX_AGE_MS;

/** The distance filter's location from localStorage, if under an hour old. */
export function readCachedLocation(nowMs: number): LatLng | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { lat?: unknown; lng?: unknown; ts?: unknown };
    if (
      typeof parsed.lat !== "number" ||
      typeof parsed.lng !== "number" ||
      typeof parsed.ts !== "number" ||
      nowMs - parsed.ts > CACHE_MAX_AGE_MS
    ) {
      return null;
    }
    return { lat: parsed.lat, lng: parsed.lng };
  } catch {
    return null;
  }
}

export function writeCachedLocation(location: LatLng, nowMs: number): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify({ ...location, ts: nowMs }));
  } catch {
    // Private mode or a full quota: the location is still used for this visit.
  }
}

/** The distance filter left on at the last visit, with its location while that is under an hour old. */
export type RememberedArea = { location: LatLng; radiusMiles: number };

/**
 * The distance filter as the comedian left it, if it was on and its location
 * is under an hour old: the scene opens with it on, without asking the browser.
 * Kept in the same `userLocation` entry (cleared on sign-out with it).
 */
export function readRememberedArea(nowMs: number): RememberedArea | null {
  const location = readCachedLocation(nowMs);
  if (!location) return null;
  try {
    const { radiusMiles } = (JSON.parse(localStorage.getItem(CACHE_KEY)!) as { radiusMiles?: unknown }) ?? {};
    // 5 to 50 miles in steps of 5, as the slider allows.
    if (typeof radiusMiles !== "number" || !Number.isInteger(radiusMiles / 5) || radiusMiles < 5 || radiusMiles > 50)
      return null;
    return { location, radiusMiles };
  } catch {
    return null;
  }
}

/** Remembers the distance filter's state beside the saved location (null: off). The location's age is kept. */
export function rememberDistanceFilter(radiusMiles: number | null): void {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return;
    const entry = JSON.parse(raw) as Record<string, unknown>;
    if (entry === null || typeof entry !== "object") return;
    if (radiusMiles === null) delete entry.radiusMiles;
    else entry.radiusMiles = radiusMiles;
    localStorage.setItem(CACHE_KEY, JSON.stringify(entry));
  } catch {
    // Unreadable or full storage: the filter is simply not remembered.
  }
}
