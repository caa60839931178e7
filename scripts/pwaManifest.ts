import type { ManifestOptions } from "vite-plugin-pwa";
import { paths } from "../src/lib/paths.ts";

/**
 * The web app manifest: what an install prompt and a home screen show. Colours are the
 * design system's (Radix violet 9 accent, the light page background); the icons come from
 * public/favicon.svg (scripts/render-icons.ts).
 */
export const pwaManifest: Partial<ManifestOptions> = {
  id: "/",
  name: "StageTime",
  short_name: "StageTime",
  description: "Log your stage time, find tonight's open mics, get on the list and know when you're up.",
  start_url: paths.home,
  scope: "/",
  display: "standalone",
  orientation: "portrait",
  theme_color: "#6e56cf",
  background_color: "#ffffff",
  categories: ["entertainment", "productivity"],
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
  ],
  shortcuts: [
    {
      name: "Tonight",
      short_name: "Tonight",
      description: "Tonight's mics in the scene",
      url: paths.scene,
      icons: [{ src: "/icons/shortcut-96.png", sizes: "96x96", type: "image/png" }],
    },
    {
      name: "Log a Set",
      short_name: "Log a Set",
      description: "Log the set you just did",
      url: paths.logSet,
      icons: [{ src: "/icons/shortcut-96.png", sizes: "96x96", type: "image/png" }],
    },
  ],
};
