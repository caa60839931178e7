/**
 * The backend's tunable limits read from the environment, as Convex's knobs.rs
 * reads its own: a positive finite number, else the default.
 */
export function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * A count or byte size read from the environment: decimal digits making an integer of at least 1
 * (as Convex's knobs parse a usize), else the default. A fraction ("0.5"), an exponent or a sign is
 * refused like any other bad value, so it cannot make one-document segments or a compaction per commit.
 * `min: 0` for the settings where 0 means something (off, no worker threads).
 */
export function intKnob(name: string, fallback: number, { min = 1 }: { min?: 0 | 1 } = {}): number {
  const raw = process.env[name]?.trim() ?? "";
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(value) && value >= min ? value : fallback;
}
