/** A readable name for a badge code the check-in returns ("first_check_in" -> "First Check In"). */
export function badgeName(code: string): string {
  return code
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}
