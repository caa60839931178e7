import { Cross2Icon, MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Spinner, Switch, Text, TextField } from "@radix-ui/themes";
import { lazy, Suspense, useId } from "react";
import {
  DAY_CHIPS,
  hasActiveFilters,
  SEARCH_MAX_LENGTH,
  SIGNUP_CHIPS,
  TIME_OF_DAY_CHIPS,
  TYPE_CHIPS,
  type SceneFilters,
} from "./filters";

const DistanceSlider = lazy(() => import("./DistanceSlider"));

type Props = {
  filters: SceneFilters;
  onChange: (next: SceneFilters) => void;
  onDistanceToggle: (enabled: boolean) => void;
  onClear: () => void;
  locating: boolean;
  locationError: string | null;
};

function Chip({ pressed, onClick, children }: { pressed: boolean; onClick: () => void; children: string }) {
  return (
    <Button size="1" radius="full" variant={pressed ? "solid" : "outline"} aria-pressed={pressed} onClick={onClick}>
      {children}
    </Button>
  );
}

/** Search, type and day chips, the distance filter and 'Clear filters'. */
export function SceneFiltersPanel({ filters, onChange, onDistanceToggle, onClear, locating, locationError }: Props) {
  const typeLabelId = useId();
  const dayLabelId = useId();
  const signupLabelId = useId();
  const timeLabelId = useId();
  return (
    <Card size="2">
      <Flex direction="column" gap="3">
        <TextField.Root
          type="search"
          size="3"
          placeholder="Search mics, venues or cities"
          aria-label="Search mics, venues or cities"
          maxLength={SEARCH_MAX_LENGTH}
          value={filters.search}
          onChange={(e) => onChange({ ...filters, search: e.target.value })}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon aria-hidden="true" />
          </TextField.Slot>
        </TextField.Root>

        <Flex direction="column" gap="1">
          <Text size="1" color="gray" id={typeLabelId}>
            Event type
          </Text>
          <Flex gap="2" wrap="wrap" role="group" aria-labelledby={typeLabelId}>
            {TYPE_CHIPS.map((chip) => (
              <Chip
                key={chip.value}
                pressed={filters.type === chip.value}
                onClick={() => onChange({ ...filters, type: chip.value })}
              >
                {chip.label}
              </Chip>
            ))}
          </Flex>
        </Flex>

        <Flex direction="column" gap="1">
          <Text size="1" color="gray" id={dayLabelId}>
            Day
          </Text>
          <Flex gap="2" wrap="wrap" role="group" aria-labelledby={dayLabelId}>
            {DAY_CHIPS.map((chip) => (
              <Chip
                key={chip.label}
                pressed={filters.day === chip.value}
                onClick={() => onChange({ ...filters, day: chip.value })}
              >
                {chip.label}
              </Chip>
            ))}
          </Flex>
        </Flex>

        <Flex direction="column" gap="1">
          <Text size="1" color="gray" id={signupLabelId}>
            Sign-up
          </Text>
          <Flex gap="2" wrap="wrap" role="group" aria-labelledby={signupLabelId}>
            {SIGNUP_CHIPS.map((chip) => (
              <Chip
                key={chip.value}
                pressed={filters.signup === chip.value}
                onClick={() => onChange({ ...filters, signup: chip.value })}
              >
                {chip.label}
              </Chip>
            ))}
          </Flex>
        </Flex>

        <Flex direction="column" gap="1">
          <Text size="1" color="gray" id={timeLabelId}>
            Time of day
          </Text>
          <Flex gap="2" wrap="wrap" role="group" aria-labelledby={timeLabelId}>
            {TIME_OF_DAY_CHIPS.map((chip) => (
              <Chip
                key={chip.value}
                pressed={filters.timeOfDay === chip.value}
                onClick={() => onChange({ ...filters, timeOfDay: chip.value })}
              >
                {chip.label}
              </Chip>
            ))}
          </Flex>
        </Flex>

        <Flex gap="4" wrap="wrap">
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Switch checked={filters.freeOnly} onCheckedChange={(freeOnly) => onChange({ ...filters, freeOnly })} />
              Free only
            </Flex>
          </Text>
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Switch
                checked={filters.hideStale}
                onCheckedChange={(hideStale) => onChange({ ...filters, hideStale })}
              />
              Hide stale listings
            </Flex>
          </Text>
        </Flex>

        <Flex direction="column" gap="2">
          <Flex align="center" gap="3" wrap="wrap">
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Switch checked={filters.distanceEnabled} onCheckedChange={onDistanceToggle} />
                Filter by distance
              </Flex>
            </Text>
            {locating ? (
              <Flex gap="1" align="center">
                <Spinner size="1" />
                <Text size="1" color="gray">
                  Finding your location…
                </Text>
              </Flex>
            ) : null}
          </Flex>
          {filters.distanceEnabled ? (
            <Flex direction="column" gap="2" style={{ maxWidth: 360 }}>
              <Text size="2">Within {filters.radiusMiles} miles</Text>
              <Suspense fallback={<Box height="var(--space-5)" />}>
                <DistanceSlider
                  radiusMiles={filters.radiusMiles}
                  onChange={(radiusMiles) => onChange({ ...filters, radiusMiles })}
                />
              </Suspense>
            </Flex>
          ) : null}
          {locationError ? (
            <Callout.Root color="red" size="1" role="alert">
              <Callout.Text>{locationError}</Callout.Text>
            </Callout.Root>
          ) : null}
        </Flex>

        <Flex>
          <Button variant="ghost" color="gray" onClick={onClear} disabled={!hasActiveFilters(filters)}>
            <Cross2Icon aria-hidden="true" />
            Clear filters
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
