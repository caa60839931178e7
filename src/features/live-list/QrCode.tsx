import { useMemo } from "react";
import { encode } from "uqr";

/** A QR code of `text`, drawn in the browser as one SVG path (dark modules on a white quiet zone). */
export function QrCode({ text, size, label }: { text: string; size: number; label: string }) {
  const { path, extent } = useMemo(() => {
    const { data, size: modules } = encode(text, { ecc: "M", border: 2 });
    let d = "";
    data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { path: d, extent: modules };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${extent} ${extent}`}
      shapeRendering="crispEdges"
      style={{ background: "white", display: "block" }}
    >
      <path d={path} fill="black" />
    </svg>
  );
}
