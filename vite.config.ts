import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { criticalChunks } from "./scripts/criticalChunks.ts";
import { CRITICAL_ROUTES } from "./scripts/criticalRoutes.ts";
import { radixIconsPerModule } from "./scripts/radixIconsPlugin.ts";
import { radixThemeWithoutTooltipProvider } from "./scripts/radixThemeTooltipPlugin.ts";
import { routePreload } from "./scripts/routePreloadPlugin.ts";
import { sceneFirstPageOverHttp } from "./scripts/sceneFirstPagePlugin.ts";

export default defineConfig({
  plugins: [
    radixIconsPerModule(),
    radixThemeWithoutTooltipProvider(),
    react(),
    // One table of the routes whose code the first load must not wait for: both plugins take it.
    routePreload(CRITICAL_ROUTES),
    sceneFirstPageOverHttp(),
    // Build only: the entry's static imports in the entry chunk, each of these pages' in one more.
    criticalChunks(CRITICAL_ROUTES),
  ],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 4173, strictPort: true },
  build: { sourcemap: false, chunkSizeWarningLimit: 600 },
});
