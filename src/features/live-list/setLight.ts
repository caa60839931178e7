/** The light of a set: green while there is time, the light (amber) for the last minutes, red once time is up. */
export type SetLight = "green" | "light" | "red";

/** Which light shows `elapsedMs` into a set of `setMinutes`, with the light `lightMinutes` before the end. */
export function setLight(elapsedMs: number, setMinutes: number, lightMinutes: number): SetLight {
  if (elapsedMs >= setMinutes * 60_000) return "red";
  if (elapsedMs >= (setMinutes - lightMinutes) * 60_000) return "light";
  return "green";
}

export const LIGHT_TEXT: Record<SetLight, string> = { green: "Green", light: "Light", red: "Time's up" };
export const LIGHT_COLOR = { green: "green", light: "amber", red: "red" } as const;

/** "4:05": minutes and seconds of a set so far. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
