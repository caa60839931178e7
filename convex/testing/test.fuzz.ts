/** What the fuzz tests (fuzz.test.ts, fuzzHostile*.test.ts) share: the JSON form of an args validator, the clock, a 1 MB string and how an outcome is described. */
import { ConvexError } from "convex/values";

export type ValidatorJson =
  | { type: "null" | "number" | "bigint" | "boolean" | "string" | "bytes" | "any" }
  | { type: "literal"; value: string | number | boolean }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJson }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson } }
  | { type: "union"; value: ValidatorJson[] }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> };

export const NOW = Date.parse("2026-11-25T19:45:00-05:00");
export const DAY = 24 * 60 * 60 * 1000;
export const VENUE = { latitude: 40.7411, longitude: -73.9897 };
export const ONE_MB = "x".repeat(1024 * 1024);

export function describeOutcome(outcome: { ok: boolean; error?: unknown; value?: unknown }): string {
  if (outcome.ok) return `accepted (answered ${JSON.stringify(outcome.value)?.slice(0, 200)})`;
  const error = outcome.error;
  if (error instanceof ConvexError) return `ConvexError ${JSON.stringify(error.data)}`;
  return error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error);
}
