import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { criticalChunks } from "./scripts/criticalChunks";
import { radixIconsPerModule } from "./scripts/radixIconsPlugin";
import { radixThemeWithoutTooltipProvider } from "./scripts/radixThemeTooltipPlugin";
import { routePreload } from "./scripts/routePreloadPlugin";
import { sceneFirstPageOverHttp } from "./scripts/sceneFirstPagePlugin";

export default defineConfig({
  plugins: [
    radixIconsPerModule(),
    radixThemeWithoutTooltipProvider(),
    react(),
    routePreload({ "/scene": "src/routes/Scene.tsx", "/": "src/routes/Landing.tsx" }),
    sceneFirstPageOverHttp(),
    // Build only: the entry's static imports in the entry chunk, each of these pages' in one more.
    criticalChunks({ "scene-deps": "src/routes/Scene.tsx", "landing-deps": "src/routes/Landing.tsx" }),
  ],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 4173, strictPort: true },
  build: { sourcemap: false, chunkSizeWarningLimit: 600 },
});
