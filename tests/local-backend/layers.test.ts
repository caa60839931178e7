/**
 * The local backend's layers (local-backend/README.md, "How it works"): a folder imports only
 * from its own layer and the ones below, no import cycles, no folder past 15 files. The debts
 * still being paid are listed here by name, so a new one fails and a paid one must be struck off.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script without types
import { measure } from "../../scripts/archMeasures.mjs";

type Measures = {
  perFolder: Record<string, number>;
  upward: string[];
  cycles: string[][];
  valueCycles: string[][];
};

/** Imports that still point up a layer: runtime services that take the whole Engine. */
const KNOWN_UPWARD = [
  "database/componentStore.ts -> runtime/bundle/bundler.ts",
  "database/schemaValidation.ts -> runtime/functionContext.ts",
  "runtime/actions/actionHost.ts -> engine/engine.ts",
  "runtime/concurrentMutations.ts -> engine/engine.ts",
  "runtime/crons.ts -> engine/engine.ts",
  "runtime/scheduledJobs.ts -> engine/engine.ts",
  "runtime/syscalls.ts -> engine/engine.ts",
];

/** Cycles still there, through `import type` only. */
const KNOWN_CYCLES = [
  [
    "engine/commits.ts",
    "engine/demoAccounts.ts",
    "engine/engine.ts",
    "engine/fileStorage.ts",
    "engine/persistence.ts",
    "engine/reload.ts",
    "engine/snapshotIO.ts",
    "runtime/actions/actionHost.ts",
    "runtime/concurrentMutations.ts",
    "runtime/crons.ts",
    "runtime/scheduledJobs.ts",
    "runtime/syscalls.ts",
  ],
  ["sync/sync.ts", "sync/syncAuth.ts", "sync/syncMessages.ts", "sync/syncSession.ts"],
];

describe("local-backend layers", () => {
  const m = measure() as Measures;

  it("keeps every folder small enough to name", () => {
    const big = Object.entries(m.perFolder).filter(([, count]) => count > 15);
    expect(big).toEqual([]);
  });

  it("has no import pointing back up a layer beyond the known ones", () => {
    expect([...m.upward].sort()).toEqual([...KNOWN_UPWARD].sort());
  });

  it("has no import cycle of values, and no cycle beyond the known type-only ones", () => {
    expect(m.valueCycles).toEqual([]);
    const key = (cycle: string[]) => cycle.join(" ");
    expect(m.cycles.map(key).sort()).toEqual(KNOWN_CYCLES.map(key).sort());
  });
});
