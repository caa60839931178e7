/**
 * The local backend's layers (local-backend/README.md, "How it works"): a folder imports only
 * from its own layer and the ones below, no import cycles, no folder past 15 files.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script without types
import { measure } from "../../scripts/archMeasures.mjs";

type Measures = {
  perFolder: Record<string, number>;
  upward: string[];
  cycles: string[][];
  appImports: string[];
  deepImports: string[];
  engineImporters: string[];
  anys: number;
};

/**
 * Imports into another folder that skip its index.ts: only the two plain-JavaScript modules
 * (the action worker's thread and functionRandom.mjs) load common/contextSlot.mjs by its file.
 */
const MAX_DEEP_IMPORTS = 2;

/** Files that take the whole `Engine` (the CLI, the servers, the sync manager); services take small interfaces. */
const MAX_ENGINE_IMPORTERS = 5;

/** `any` left in local-backend/src, each with its reason beside it; lower it as they go. */
const MAX_ANYS = 5;

describe("local-backend layers", () => {
  const m = measure() as Measures;

  it("keeps every folder small enough to name", () => {
    const big = Object.entries(m.perFolder).filter(([, count]) => count > 15);
    expect(big).toEqual([]);
  });

  it("has no import pointing back up a layer", () => {
    expect(m.upward).toEqual([]);
  });

  it("has no import cycle, counting `import type`", () => {
    expect(m.cycles).toEqual([]);
  });

  it("imports nothing of the app (convex/, convex-dev/, its seed data): it is told, as by --demo-accounts", () => {
    expect(m.appImports).toEqual([]);
  });

  it("reaches another folder through its index.ts, its public surface", () => {
    expect(m.deepImports.length, m.deepImports.join("\n")).toBeLessThanOrEqual(MAX_DEEP_IMPORTS);
  });

  it("hands services the small interfaces they use, not the whole Engine", () => {
    expect(m.engineImporters.length, m.engineImporters.join("\n")).toBeLessThanOrEqual(MAX_ENGINE_IMPORTERS);
  });

  it("keeps `any` under its ceiling", () => {
    expect(m.anys).toBeLessThanOrEqual(MAX_ANYS);
  });
});
