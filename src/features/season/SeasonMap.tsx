import { Box, Text } from "@radix-ui/themes";

type Place = { name: string; latitude: number; longitude: number; sets: number };

const WIDTH = 320;
const HEIGHT = 200;
const PAD = 16;

/**
 * Where the comedian performed: each venue a dot on a plain plot of its
 * coordinates (no map tiles, so it works offline), bigger for more sets.
 */
export function SeasonMap({ places }: { places: Place[] }) {
  if (places.length === 0) {
    return (
      <Text as="p" size="2" color="gray">
        No venues with a location in this period.
      </Text>
    );
  }
  const lats = places.map((p) => p.latitude);
  const lngs = places.map((p) => p.longitude);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLng, maxLng] = [Math.min(...lngs), Math.max(...lngs)];
  // Equal degrees on both axes (corrected for latitude), centred, so distances look right.
  const midLat = ((minLat + maxLat) / 2) * (Math.PI / 180);
  const spanX = Math.max((maxLng - minLng) * Math.cos(midLat), 0.01);
  const spanY = Math.max(maxLat - minLat, 0.01);
  const scale = Math.min((WIDTH - 2 * PAD) / spanX, (HEIGHT - 2 * PAD) / spanY);
  const x = (lng: number) => WIDTH / 2 + (lng - (minLng + maxLng) / 2) * Math.cos(midLat) * scale;
  const y = (lat: number) => HEIGHT / 2 - (lat - (minLat + maxLat) / 2) * scale;
  const most = Math.max(...places.map((p) => p.sets));
  return (
    <Box style={{ background: "var(--gray-a2)", borderRadius: "var(--radius-3)" }}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={`Map of where you performed: ${places.length} ${places.length === 1 ? "venue" : "venues"}`}
        data-testid="season-map"
      >
        {places.map((p) => (
          <circle
            key={`${p.name}-${p.latitude}-${p.longitude}`}
            cx={x(p.longitude)}
            cy={y(p.latitude)}
            r={4 + 8 * Math.sqrt(p.sets / most)}
            fill="var(--accent-9)"
            fillOpacity={0.6}
            stroke="var(--accent-11)"
          >
            <title>{`${p.name}: ${p.sets} ${p.sets === 1 ? "set" : "sets"}`}</title>
          </circle>
        ))}
      </svg>
    </Box>
  );
}
