import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { criticalChunks } from "./scripts/criticalChunks.ts";
import { CRITICAL_ROUTES } from "./scripts/criticalRoutes.ts";
import { radixIconsPerModule } from "./scripts/radixIconsPlugin.ts";
import { radixThemeWithoutTooltipProvider } from "./scripts/radixThemeTooltipPlugin.ts";
import { routePreload } from "./scripts/routePreloadPlugin.ts";
import { sceneFirstPageOverHttp } from "./scripts/sceneFirstPagePlugin.ts";
import { pwaManifest } from "./scripts/pwaManifest.ts";
import { securityHeadersPlugin } from "./scripts/securityHeaders.ts";

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
    // The web app manifest and the service worker (src/sw/sw.ts, built with the app's precache list).
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      registerType: "prompt",
      // Registered by the app itself (src/app/pwa), after its first render.
      injectRegister: false,
      manifest: pwaManifest,
      injectManifest: { globPatterns: ["**/*.{js,css,html,svg,png,woff2}"] },
    }),
    // Writes dist/_headers and an nginx snippet (CSP with the inline scripts' hashes); `vite preview` serves them.
    securityHeadersPlugin(),
  ],
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      "@convex": fileURLToPath(new URL("./convex", import.meta.url)),
    },
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 4173, strictPort: true },
  build: { sourcemap: false, chunkSizeWarningLimit: 600 },
});
