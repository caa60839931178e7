/**
 * Loading the Google Maps JavaScript API (places library) and the few calls
 * the venue search makes. Typed by hand: only what we use.
 */

export type PlacePrediction = {
  place_id: string;
  description: string;
  structured_formatting?: { main_text: string; secondary_text?: string };
};

export type PlaceDetails = {
  formatted_address?: string;
  name?: string;
  geometry?: { location?: { lat: () => number; lng: () => number } };
  address_components?: { long_name: string; types: string[] }[];
};

type PlacesLibrary = {
  AutocompleteService: new () => unknown;
  PlacesService: new (attr: HTMLElement) => {
    getDetails: (
      request: { placeId: string; fields: string[] },
      callback: (result: PlaceDetails | null, status: string) => void,
    ) => void;
  };
};

type MapsWindow = Window & {
  google?: { maps?: { places?: PlacesLibrary } };
  gm_authFailure?: () => void;
  [callback: string]: unknown;
};

/** Why the Maps script could not be used (missing key, auth failure, load failure, timeout). */
export type MapsLoadFailure = "missing-key" | "auth" | "load" | "timeout" | "no-places";

export class MapsLoadError extends Error {
  constructor(readonly reason: MapsLoadFailure) {
    super(`Google Maps could not be loaded: ${reason}`);
    this.name = "MapsLoadError";
  }
}

/** The toast for each load failure. */
export function mapsLoadToast(reason: MapsLoadFailure): { title: string; description: string } {
  switch (reason) {
    case "missing-key":
      return {
        title: "Configuration Error",
        description: "Google Maps API key is missing. Searching venues already in the scene.",
      };
    case "auth":
      return {
        title: "Maps API Error",
        description: "Google Maps rejected the API key. Searching venues already in the scene.",
      };
    case "timeout":
      return {
        title: "Maps API Error",
        description: "Google Maps took too long to load. Searching venues already in the scene.",
      };
    case "no-places":
      return { title: "Google Places not available", description: "Searching venues already in the scene." };
    case "load":
      return {
        title: "Maps API Error",
        description: "Failed to load Google Maps. Searching venues already in the scene.",
      };
  }
}

/** The 'Search Error' description for an autocomplete status other than OK. */
export function searchStatusMessage(status: string): string | null {
  switch (status) {
    case "":
    case "OK":
      return null;
    case "ZERO_RESULTS":
      return "No venues found for your search";
    case "REQUEST_DENIED":
      return "Places API request denied - check API key configuration";
    case "OVER_QUERY_LIMIT":
      return "Too many requests - please try again later";
    default:
      return "Failed to search venues";
  }
}

export const MAPS_LOAD_TIMEOUT_MS = 15_000;
const CALLBACK = "__stagetimeMapsReady";

let loading: Promise<void> | null = null;

function mapsWindow(): MapsWindow {
  return window as unknown as MapsWindow;
}

/** Whether the places library is already on the page (loaded before, or provided by a test). */
export function placesAvailable(): boolean {
  return typeof window !== "undefined" && !!mapsWindow().google?.maps?.places;
}

/**
 * Resolves once `google.maps.places` is usable: at once when it is already on
 * the page, else by loading the script with `apiKey` (15 s timeout). Rejects
 * with a {@link MapsLoadError}. One load is shared by every caller.
 */
export function loadGoogleMaps(apiKey: string | undefined): Promise<void> {
  if (placesAvailable()) return Promise.resolve();
  if (!apiKey) return Promise.reject(new MapsLoadError("missing-key"));
  loading ??= new Promise<void>((resolve, reject) => {
    const w = mapsWindow();
    const fail = (reason: MapsLoadFailure) => {
      window.clearTimeout(timer);
      loading = null;
      reject(new MapsLoadError(reason));
    };
    const timer = window.setTimeout(() => fail("timeout"), MAPS_LOAD_TIMEOUT_MS);
    // Google calls this global when the key is refused.
    w.gm_authFailure = () => fail("auth");
    w[CALLBACK] = () => {
      window.clearTimeout(timer);
      if (placesAvailable()) resolve();
      else fail("no-places");
    };
    const script = document.createElement("script");
    script.src = `https://maps.googleapis.com/maps/api/js?key=${encodeURIComponent(apiKey)}&libraries=places&loading=async&callback=${CALLBACK}`;
    script.async = true;
    script.onerror = () => fail("load");
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * Geometry and formatted address of a place; null when the call fails (the
 * venue is then kept without coordinates).
 */
export function getPlaceDetails(placeId: string): Promise<PlaceDetails | null> {
  return new Promise((resolve) => {
    const places = mapsWindow().google?.maps?.places;
    if (!places) {
      resolve(null);
      return;
    }
    try {
      const service = new places.PlacesService(document.createElement("div"));
      service.getDetails(
        { placeId, fields: ["geometry", "formatted_address", "name", "address_components"] },
        (result, status) => resolve(status === "OK" ? result : null),
      );
    } catch {
      resolve(null);
    }
  });
}

/** The city (locality) of a place, if Google gave one. */
export function cityOf(details: PlaceDetails | null): string | undefined {
  const parts = details?.address_components ?? [];
  return (
    parts.find((p) => p.types.includes("locality"))?.long_name ??
    parts.find((p) => p.types.includes("postal_town"))?.long_name ??
    parts.find((p) => p.types.includes("administrative_area_level_2"))?.long_name
  );
}
