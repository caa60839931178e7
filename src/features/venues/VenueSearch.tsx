import { Button, Callout, Card, Flex, SegmentedControl, Text } from "@radix-ui/themes";
import { SewingPinIcon } from "@radix-ui/react-icons";
import { useQuery } from "convex/react";
import { useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import usePlacesAutocomplete from "use-places-autocomplete";
import { api } from "@convex/_generated/api";
import { haversineMeters } from "@convex/lib/geo";
import type { VenueInput } from "@convex/model/events";
import {
  cityOf,
  getPlaceDetails,
  loadGoogleMaps,
  MapsLoadError,
  mapsLoadToast,
  placesAvailable,
  searchStatusMessage,
  type PlacePrediction,
} from "./googleMaps";
import { viewerTimeZone } from "@/lib/timeZone";
import type { VenueSearchProps } from "@/lib/wizardPartProps";
import { ManualVenueForm } from "./ManualVenueForm";
import { useDebouncedValue } from "./useDebouncedValue";
import { LOCATION_DENIED_MESSAGE, readSavedLocation, requestLocation, saveLocation, type LatLng } from "./userLocation";
import { VenueCombobox, type ComboOption } from "./VenueCombobox";
import { sceneResultToVenue, searchHint, type SceneVenueResult } from "./venueResults";

export type { VenueInput };

export type { VenueSearchProps };

type Scope = "nearby" | "global";
type Source = "loading" | "google" | "scene";

const GLOBAL_REGIONS = ["us", "ca", "gb", "au"];
const BIAS_RADIUS_M = 50_000;
export const SEARCH_DEBOUNCE_MS = 300;

/** Google Places when it is configured (or already on the page), else the venues in the scene. */
function useVenueSource(): Source {
  const apiKey = (import.meta.env.VITE_GOOGLE_MAPS_API_KEY as string | undefined)?.trim() || undefined;
  const [source, setSource] = useState<Source>(() => (placesAvailable() ? "google" : apiKey ? "loading" : "scene"));
  useEffect(() => {
    // Without a key the scene search is the normal offline setup (the README's
    // default): the hint under the box says so, no toast. The Maps error toasts
    // are for a key that is set and fails (below).
    if (!apiKey && !placesAvailable() && import.meta.env.DEV) {
      console.info("VITE_GOOGLE_MAPS_API_KEY is not set: the venue search uses the venues already in the scene.");
    }
  }, [apiKey]);
  useEffect(() => {
    if (source !== "loading") return;
    let cancelled = false;
    loadGoogleMaps(apiKey).then(
      () => {
        if (!cancelled) setSource("google");
      },
      (err: unknown) => {
        if (cancelled) return;
        const t = mapsLoadToast(err instanceof MapsLoadError ? err.reason : "load");
        toast.error(t.title, { description: t.description, id: "maps-load" });
        setSource("scene");
      },
    );
    return () => {
      cancelled = true;
    };
  }, [source, apiKey]);
  return source;
}

/**
 * The venue search of both wizards and onboarding: Google Places when
 * available, otherwise the venues already in the scene, plus 'Enter the venue
 * yourself'. Nearby search biases results to the saved location.
 */
export function VenueSearch({
  value,
  onChange,
  usOnly = false,
  minChars = usOnly ? 3 : 1,
  label = "Search for a venue",
  autoFocus = false,
  onManualEntryChange,
}: VenueSearchProps) {
  const source = useVenueSource();
  const [location, setLocation] = useState<LatLng | null>(() => readSavedLocation(Date.now()));
  const [scope, setScope] = useState<Scope>(() => (location ? "nearby" : "global"));
  const [locating, setLocating] = useState(false);
  const [manual, setManualState] = useState(false);
  const setManual = (open: boolean) => {
    setManualState(open);
    onManualEntryChange?.(open);
  };

  const enableLocation = async () => {
    setLocating(true);
    try {
      const here = await requestLocation();
      saveLocation(here, Date.now());
      setLocation(here);
      setScope("nearby");
    } catch {
      setScope("global");
      toast("Location unavailable", { description: LOCATION_DENIED_MESSAGE });
    } finally {
      setLocating(false);
    }
  };

  if (value) {
    return (
      <Card size="3" aria-label="Selected venue">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Flex direction="column">
            <Text size="4" weight="bold">
              {value.venueName}
            </Text>
            {value.address || value.city ? (
              <Text size="2" color="gray">
                {value.address ?? value.city}
              </Text>
            ) : null}
          </Flex>
          <Button variant="soft" size="3" onClick={() => onChange(null)}>
            Change venue
          </Button>
        </Flex>
      </Card>
    );
  }

  if (manual) {
    return (
      <ManualVenueForm
        onCancel={() => setManual(false)}
        onSubmit={(venue) => {
          setManual(false);
          onChange(venue);
        }}
      />
    );
  }

  const nearby = scope === "nearby" && location !== null;
  return (
    <Flex direction="column" gap="3">
      <SegmentedControl.Root
        size="3"
        value={scope}
        aria-label="Search area"
        onValueChange={(v) => {
          setScope(v as Scope);
          if (v === "nearby" && !location) void enableLocation();
        }}
      >
        <SegmentedControl.Item value="nearby">Nearby</SegmentedControl.Item>
        <SegmentedControl.Item value="global">Global</SegmentedControl.Item>
      </SegmentedControl.Root>
      {!location ? (
        <Callout.Root color="gray" size="1">
          <Callout.Icon>
            <SewingPinIcon />
          </Callout.Icon>
          <Flex justify="between" align="center" gap="3" wrap="wrap" width="100%">
            <Callout.Text>Turn on location to see venues near you first.</Callout.Text>
            <Button size="2" variant="soft" loading={locating} onClick={() => void enableLocation()}>
              Enable Location
            </Button>
          </Flex>
        </Callout.Root>
      ) : null}
      {source === "google" ? (
        <GooglePlacesSearch
          label={label}
          usOnly={usOnly}
          minChars={minChars}
          near={nearby ? location : null}
          onChange={onChange}
          autoFocus={autoFocus}
        />
      ) : (
        <>
          <SceneVenueSearch
            label={label}
            minChars={minChars}
            near={nearby ? location : null}
            onChange={onChange}
            autoFocus={autoFocus}
          />
          <Text size="1" color="gray">
            Searching venues already in the scene{nearby ? ", nearest first" : ""}.
          </Text>
        </>
      )}
      <Flex direction="column" align="start" gap="1">
        <Text size="2" color="gray">
          Can't find it?
        </Text>
        <Button variant="outline" size="3" onClick={() => setManual(true)}>
          Enter the venue yourself
        </Button>
      </Flex>
    </Flex>
  );
}

type SourceProps = {
  label: string;
  autoFocus: boolean;
  minChars: number;
  near: LatLng | null;
  onChange: (venue: VenueInput) => void;
};

/** Search among venues already in the scene (no Google): nearest first when the location is known. */
function SceneVenueSearch({ label, minChars, near, onChange, autoFocus }: SourceProps) {
  const [text, setText] = useState("");
  const debounced = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const ready = debounced.length >= minChars;
  const results = useQuery(api.venues.search, ready ? { query: debounced } : "skip");
  const sorted = useMemo(() => sortByDistance(results ?? [], near), [results, near]);
  const options: ComboOption[] = sorted.map((r, i) => ({
    key: `${r.venueName}|${r.address ?? ""}|${i}`,
    primary: r.venueName,
    secondary: [r.address ?? r.city, `${r.itemCount} ${r.itemCount === 1 ? "event" : "events"}`]
      .filter(Boolean)
      .join(" · "),
  }));
  const searching = ready && (results === undefined || debounced !== text.trim());
  const message =
    searchHint(text, minChars) ?? (ready && results && results.length === 0 ? "No venues found for your search" : null);
  return (
    <VenueCombobox
      label={label}
      autoFocus={autoFocus}
      value={text}
      onValueChange={setText}
      options={options}
      loading={searching}
      message={message}
      onPick={(option) => {
        const picked = sorted[options.indexOf(option)];
        if (picked) onChange(sceneResultToVenue(picked));
      }}
    />
  );
}

function sortByDistance(results: SceneVenueResult[], near: LatLng | null): SceneVenueResult[] {
  if (!near) return results;
  const distance = (r: SceneVenueResult) =>
    r.latitude === null || r.longitude === null
      ? Number.POSITIVE_INFINITY
      : haversineMeters(near, { lat: r.latitude, lng: r.longitude });
  return [...results].sort((a, b) => distance(a) - distance(b));
}

/** Google Places autocomplete (establishments), then place details for the coordinates. */
function GooglePlacesSearch({ label, minChars, near, onChange, usOnly, autoFocus }: SourceProps & { usOnly: boolean }) {
  const requestOptions = useMemo(
    () => ({
      types: ["establishment"],
      componentRestrictions: { country: usOnly ? ["us"] : GLOBAL_REGIONS },
      ...(near ? { locationBias: { center: near, radius: BIAS_RADIUS_M } } : {}),
    }),
    [usOnly, near],
  );
  const {
    ready,
    value,
    setValue,
    clearSuggestions,
    suggestions: { status, data, loading },
    init,
  } = usePlacesAutocomplete({
    requestOptions: requestOptions as never,
    debounce: SEARCH_DEBOUNCE_MS,
    initOnMount: false,
    cache: false,
  });
  const [picking, setPicking] = useState(false);

  useEffect(() => {
    init();
  }, [init]);

  const statusMessage = searchStatusMessage(status);
  useEffect(() => {
    if (statusMessage && status !== "ZERO_RESULTS")
      toast.error("Search Error", { description: statusMessage, id: "places-search" });
  }, [status, statusMessage]);

  const predictions = (status === "OK" ? data : []) as unknown as PlacePrediction[];
  const options: ComboOption[] = predictions.map((p) => ({
    key: p.place_id,
    primary: p.structured_formatting?.main_text ?? p.description,
    secondary: p.structured_formatting?.secondary_text,
  }));

  const pick = async (prediction: PlacePrediction) => {
    setPicking(true);
    setValue(prediction.structured_formatting?.main_text ?? prediction.description, false);
    clearSuggestions();
    const details = await getPlaceDetails(prediction.place_id);
    setPicking(false);
    const loc = details?.geometry?.location;
    const address =
      details?.formatted_address ?? prediction.structured_formatting?.secondary_text ?? prediction.description;
    onChange({
      venueName: prediction.structured_formatting?.main_text ?? details?.name ?? prediction.description,
      address,
      city: cityOf(details) ?? address,
      googlePlaceId: prediction.place_id,
      ...(loc ? { latitude: loc.lat(), longitude: loc.lng() } : {}),
      timeZone: viewerTimeZone(),
    });
  };

  const message =
    searchHint(value, minChars) ??
    (!ready ? "Places search unavailable" : status === "ZERO_RESULTS" ? statusMessage : null);
  return (
    <VenueCombobox
      label={label}
      autoFocus={autoFocus}
      value={value}
      onValueChange={(text) => {
        // Below the minimum length nothing is sent to Google.
        setValue(text, text.trim().length >= minChars);
        if (text.trim().length < minChars) clearSuggestions();
      }}
      options={options}
      loading={loading || picking}
      message={message}
      onPick={(option) => {
        const prediction = predictions.find((p) => p.place_id === option.key);
        if (prediction) void pick(prediction);
      }}
    />
  );
}
