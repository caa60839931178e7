import { useCallback, useRef, useState } from "react";
import { toast } from "@/lib/toast";
import type { LatLng } from "@convex/lib/geo";
import {
  FILTER_POSITION_OPTIONS,
  getCurrentLocation,
  LOCATION_DENIED_HINT,
  LOCATION_TOAST_TITLE,
  LocationError,
  readCachedLocation,
  writeCachedLocation,
} from "./location";

/**
 * The comedian's location for the distance filter: asked of the browser once
 * (a rough fix is enough), kept for the visit and cached for an hour in
 * localStorage so the next visit does not ask again. `initial`: a saved
 * location the page already read.
 */
export function useDistanceLocation(initial: LatLng | null = null) {
  const [location, setLocation] = useState<LatLng | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const asking = useRef(false);

  /** Resolves with the location when one is available, else null. */
  const requestLocation = useCallback(async (): Promise<LatLng | null> => {
    if (location) return location;
    const cached = readCachedLocation(Date.now());
    if (cached) {
      setLocation(cached);
      setError(null);
      return cached;
    }
    if (asking.current) return null;
    asking.current = true;
    setLocating(true);
    try {
      const fix = await getCurrentLocation(FILTER_POSITION_OPTIONS);
      writeCachedLocation(fix, Date.now());
      setLocation(fix);
      setError(null);
      return fix;
    } catch (err) {
      const reason = err instanceof LocationError ? err.message : "Failed to get location";
      const denied = err instanceof LocationError && err.denied;
      setError(denied ? `${reason} ${LOCATION_DENIED_HINT}` : reason);
      toast.error(LOCATION_TOAST_TITLE, { description: denied ? `${reason} ${LOCATION_DENIED_HINT}` : reason });
      return null;
    } finally {
      asking.current = false;
      setLocating(false);
    }
  }, [location]);

  return { location, error, locating, requestLocation, clearError: () => setError(null) };
}
