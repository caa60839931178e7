/**
 * The backend's tunable limits read from the environment, as Convex's knobs.rs
 * reads its own: a positive finite number, else the default.
 */
export function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
