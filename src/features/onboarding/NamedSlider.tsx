import { Slider } from "@radix-ui/themes";
import { useEffect, useRef } from "react";

type NamedSliderProps = {
  /** Accessible name of the thumb (the element with role="slider"). */
  label: string;
  valueText: string;
  min: number;
  max: number;
  step: number;
  value: number;
  onChange: (value: number) => void;
};

/** A single-thumb Radix Themes slider whose thumb has a name: Themes does not
 * pass one to the thumb, so screen readers would announce a bare "slider". */
export function NamedSlider({ label, valueText, min, max, step, value, onChange }: NamedSliderProps) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const thumb = ref.current?.querySelector('[role="slider"]');
    thumb?.setAttribute("aria-label", label);
    thumb?.setAttribute("aria-valuetext", valueText);
  });
  return (
    <Slider
      ref={ref}
      size="3"
      min={min}
      max={max}
      step={step}
      value={[value]}
      onValueChange={([v]) => {
        if (v !== undefined) onChange(v);
      }}
    />
  );
}
