import { Flex, Text } from "@radix-ui/themes";

type GoalRingProps = {
  /** 0..100 */
  percent: number;
  /** What the ring means in words (aria-valuetext), e.g. "40% complete". */
  text: string;
  size?: number;
};

/** The weekly goal's progress ring: an SVG arc exposed as a progressbar. */
export function GoalRing({ percent, text, size = 132 }: GoalRingProps) {
  const stroke = 12;
  const radius = (size - stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  const clamped = Math.max(0, Math.min(100, percent));
  return (
    <Flex
      position="relative"
      align="center"
      justify="center"
      flexShrink="0"
      role="progressbar"
      aria-label="Weekly goal progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={text}
      style={{ width: size, height: size }}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true">
        <circle cx={size / 2} cy={size / 2} r={radius} fill="none" stroke="var(--gray-a4)" strokeWidth={stroke} />
        <circle
          data-testid="goal-ring-arc"
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke={clamped >= 100 ? "var(--green-9)" : "var(--accent-9)"}
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - clamped / 100)}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
          style={{ transition: "stroke-dashoffset 400ms ease" }}
        />
      </svg>
      <Text size="6" weight="bold" aria-hidden="true" style={{ position: "absolute" }}>
        {clamped}%
      </Text>
    </Flex>
  );
}
