/**
 * A count in a few characters, as on the landing page's stats: 999 → "999",
 * 1234 → "1.2k", 2500 → "2.5k", 15_300 → "15.3k", 1_250_000 → "1.3M".
 * Rounds down so a figure never claims more than is true; negatives and NaN show "0".
 */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return "0";
  const whole = Math.floor(value);
  const units: Array<[number, string]> = [
    [1_000_000_000, "B"],
    [1_000_000, "M"],
    [1_000, "k"],
  ];
  for (const [size, suffix] of units) {
    if (whole >= size) {
      const scaled = Math.floor((whole / size) * 10) / 10;
      // 999_999 floors to 999.9k rather than jumping to "1000k".
      const text = scaled >= 100 ? String(Math.floor(scaled)) : scaled.toFixed(1).replace(/\.0$/, "");
      return `${text}${suffix}`;
    }
  }
  return String(whole);
}
