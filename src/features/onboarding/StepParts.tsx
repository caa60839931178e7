import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { NamedSlider } from "./NamedSlider";

/** The question of an onboarding step, with an optional lead line. */
export function StepHeading({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  return (
    <Flex direction="column" gap="1">
      <Heading as="h1" size="6">
        {children}
      </Heading>
      {lead ? (
        <Text as="p" color="gray" size="2">
          {lead}
        </Text>
      ) : null}
    </Flex>
  );
}

export function NextButton({
  onClick,
  loading,
  children = "Next",
}: {
  onClick: () => void;
  loading?: boolean;
  children?: ReactNode;
}) {
  return (
    <Flex justify="end">
      <Button size="3" onClick={onClick} loading={loading}>
        {children}
      </Button>
    </Flex>
  );
}

type MinutesSliderProps = {
  minutes: number;
  /** Accessible name of the slider. */
  label: string;
  /** The slider's own scale, which may differ from the minutes (the goal's bottom notch is 0). */
  slider: { min: number; max: number; step: number; value: number };
  /** The minutes written under both ends. */
  range: { min: number; max: number };
  onChange: (value: number) => void;
  /** Shown between the minutes and the slider. */
  children?: ReactNode;
};

/** '8 minutes' in large type above a named slider, with the range under it. */
export function MinutesSlider({ minutes, label, slider, range, onChange, children }: MinutesSliderProps) {
  return (
    <Flex direction="column" gap="3" align="center">
      <Text size="8" weight="bold" aria-live="polite">
        {minutes} {minutes === 1 ? "minute" : "minutes"}
      </Text>
      {children}
      <NamedSlider label={label} valueText={`${minutes} minutes`} {...slider} onChange={onChange} />
      <Flex justify="between" width="100%">
        <Text size="1" color="gray">
          {range.min} min
        </Text>
        <Text size="1" color="gray">
          {range.max} min
        </Text>
      </Flex>
    </Flex>
  );
}
