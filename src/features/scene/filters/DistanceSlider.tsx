import { Slider } from "@radix-ui/themes";
import { useEffect, useRef } from "react";
import { DISTANCE_MAX_MILES, DISTANCE_MIN_MILES, DISTANCE_STEP_MILES } from "./filters";

/**
 * The distance filter's radius. Its own module, loaded when the filter is turned
 * on: the slider's code (Radix Slider and its collection) is not needed before.
 */
export default function DistanceSlider({
  radiusMiles,
  onChange,
}: {
  radiusMiles: number;
  onChange: (miles: number) => void;
}) {
  const sliderRef = useRef<HTMLSpanElement>(null);
  // Radix Themes' Slider does not pass a name to its thumb (the element with
  // role="slider"), so give it one here for screen readers.
  useEffect(() => {
    const thumb = sliderRef.current?.querySelector('[role="slider"]');
    thumb?.setAttribute("aria-label", "Distance in miles");
    thumb?.setAttribute("aria-valuetext", `${radiusMiles} miles`);
  });
  return (
    <Slider
      min={DISTANCE_MIN_MILES}
      max={DISTANCE_MAX_MILES}
      step={DISTANCE_STEP_MILES}
      value={[radiusMiles]}
      onValueChange={([miles]) => onChange(miles)}
      ref={sliderRef}
    />
  );
}
