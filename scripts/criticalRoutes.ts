import { paths } from "../src/lib/paths.ts";

/**
 * A page whose code the first load must not wait for: on `path`, index.html's
 * script preloads the chunks of `module` (scripts/routePreloadPlugin.ts), and
 * the build groups that page's static imports beyond the entry's into the chunk
 * named `chunk` (scripts/criticalChunks.ts).
 */
export type CriticalRoute = {
  /** The URL path, as the router matches it (see normalPath). */
  path: string;
  /** The page's module, relative to the project root (the router's lazy import). */
  module: string;
  /** The name of the chunk its dependencies are grouped in. */
  chunk: string;
  /**
   * Modules the page imports lazily but at once (relative to the project root):
   * their chunks are preloaded after the page's own, not run before it renders.
   */
  soon?: readonly string[];
};

/**
 * The one list both build plugins take (vite.config.ts). A module two routes
 * share goes to a chunk both load (criticalChunks' SHARED_CHUNK).
 */
export const CRITICAL_ROUTES: readonly CriticalRoute[] = [
  {
    path: paths.scene,
    module: "src/routes/Scene.tsx",
    chunk: "scene-deps",
    // Tonight, the filters (with the distance switch), and the distance filter's list when the scene opens with it on.
    soon: [
      "src/features/scene/tonight/TonightSection.tsx",
      "src/features/scene/filters/SceneFiltersPanel.tsx",
      "src/features/scene/list/AreaSceneResults.tsx",
    ],
  },
  { path: paths.home, module: "src/routes/Landing.tsx", chunk: "landing-deps" },
];
