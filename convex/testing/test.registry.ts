import { makeFunctionReference, type FunctionReference } from "convex/server";
import { afterEach, beforeEach, vi } from "vitest";
import type { TestBackend, TestUser } from "./test.setup";
import { useFrozenClock } from "./test.clock";

/** What convex/server's registered functions expose about themselves. */
type Registered = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  exportArgs?: () => string;
};

// convex.config.ts declares components (it defines no functions, and its component packages
// import extensionless paths that only a bundler resolves).
// `convex-dev/` (seeding and fixtures, loaded on top of `convex/` by the local backend without
// --prod) is listed too: a public function there would be served, so it must face the matrix.
const loaded = import.meta.glob<Record<string, unknown>>(
  ["../*.ts", "!../*.test.ts", "!../convex.config.ts", "../../convex-dev/*.ts"],
  {
    eager: true,
  },
);

/** A public function of `convex/`: "module:name", its kind and its args validator as JSON. */
export type PublicFunction = { name: string; kind: "query" | "mutation" | "action"; argsJson: string | undefined };

/** Every public query, mutation and action `convex/` exports, sorted by name (the
 * authorization matrix and the bad-input fuzzing both enumerate these). */
export function publicFunctions(): PublicFunction[] {
  const found: PublicFunction[] = [];
  for (const [path, mod] of Object.entries(loaded)) {
    const moduleName = path
      .replace(/^\.\.\/\.\.\/convex-dev\//, "")
      .replace(/^\.\.\//, "")
      .replace(/\.ts$/, "");
    for (const [exportName, value] of Object.entries(mod)) {
      const fn = value as Registered | null;
      if (fn === null || (typeof fn !== "object" && typeof fn !== "function")) continue;
      if (fn.isPublic !== true) continue;
      const kind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : fn.isAction ? "action" : null;
      if (kind === null) continue;
      found.push({ name: `${moduleName}:${exportName}`, kind, argsJson: fn.exportArgs?.() });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Who calls: the anonymous backend, or a signed-in user's (`TestUser.asUser`). */
export type Caller = TestBackend | TestUser["asUser"];

/** Calls the public function `fn` (by its "module:name", as {@link publicFunctions} lists it) as `caller`. */
export async function callPublic(
  caller: Caller,
  fn: Pick<PublicFunction, "name" | "kind">,
  args: Record<string, unknown>,
): Promise<unknown> {
  if (fn.kind === "query")
    return await caller.query(makeFunctionReference<"query">(fn.name) as FunctionReference<"query">, args);
  if (fn.kind === "mutation")
    return await caller.mutation(makeFunctionReference<"mutation">(fn.name) as FunctionReference<"mutation">, args);
  return await caller.action(makeFunctionReference<"action">(fn.name) as FunctionReference<"action">, args);
}

/**
 * For every test of the calling file: the clock frozen at `nowMs` (Date only), the server
 * environment auth and the geocoder need, and no real network (fetch answers like Google
 * Geocoding finding a place).
 */
export function useOfflineServer(nowMs: number): void {
  useFrozenClock(nowMs);
  beforeEach(() => {
    vi.stubEnv("GOOGLE_MAPS_API_KEY", "test-key");
    vi.stubEnv("CONVEX_SITE_URL", "http://127.0.0.1:3211");
    vi.stubEnv("SITE_URL", "http://localhost:5173");
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ status: "OK", results: [{ geometry: { location: { lat: 40.72, lng: -73.99 } } }] }),
            { status: 200, headers: { "content-type": "application/json" } },
          ),
      ),
    );
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });
}
