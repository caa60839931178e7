import type { SVGProps } from "react";

/**
 * Small icons the design system's set (@radix-ui/react-icons) lacks, drawn on
 * the same 15×15 grid in currentColor so they sit beside Radix icons and never
 * depend on the machine's emoji font.
 */
type IconProps = Omit<SVGProps<SVGSVGElement>, "children"> & { width?: number | string; height?: number | string };

function Svg({ width = 15, height = 15, children, ...rest }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      width={width}
      height={height}
      viewBox="0 0 15 15"
      fill="currentColor"
      xmlns="http://www.w3.org/2000/svg"
      {...rest}
    >
      {children}
    </svg>
  );
}

export function MicIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M7.5 1a2 2 0 0 0-2 2v4a2 2 0 1 0 4 0V3a2 2 0 0 0-2-2Z" />
      <path d="M3.5 6.5a.5.5 0 0 1 1 0V7a3 3 0 0 0 6 0v-.5a.5.5 0 0 1 1 0V7a4 4 0 0 1-3.5 3.97V13h2a.5.5 0 0 1 0 1h-5a.5.5 0 0 1 0-1h2v-2.03A4 4 0 0 1 3.5 7v-.5Z" />
    </Svg>
  );
}

export function FlameIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M7.9 1c.35 1.95-.55 3.2-1.6 4.3C5.25 6.4 4 7.6 4 9.65 4 11.95 5.6 14 7.5 14s3.5-1.75 3.5-4c0-1.5-.7-2.6-1.3-3.3.1 1-.3 1.8-1 2.1.4-2.6-.2-5.55-.8-7.8Z" />
    </Svg>
  );
}

export function CrownIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M1.5 4.5 4.6 7.4 7.5 2.5l2.9 4.9 3.1-2.9-1 7H2.5l-1-7Z" />
      <rect x="2.5" y="12.25" width="10" height="1.25" rx=".4" />
    </Svg>
  );
}

export function PeopleIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="5" cy="4.5" r="2" />
      <circle cx="10.6" cy="5" r="1.7" />
      <path d="M1 12.5c0-2.5 1.8-4 4-4s4 1.5 4 4v.5H1v-.5Z" />
      <path d="M9.9 13H14v-.5c0-2.1-1.5-3.4-3.4-3.4-.6 0-1.1.1-1.6.3.7.8 1 1.8 1 3.1v.5Z" />
    </Svg>
  );
}
