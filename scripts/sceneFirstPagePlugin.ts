import type { Plugin } from "vite";
import { httpFirstPageScript } from "../src/features/scene/list/firstPage.ts";
import { insertEarlyScript } from "./earlyScripts.ts";

/**
 * Builds into index.html the script that, on /scene, asks the backend for the
 * scene's first page over HTTP as the page starts loading (see
 * httpFirstPageScript). Nothing when the build has no backend address.
 */
export function sceneFirstPageOverHttp(): Plugin {
  let convexUrl: string | undefined;
  return {
    name: "scene-first-page-over-http",
    apply: "build",
    configResolved(config) {
      convexUrl = config.env.VITE_CONVEX_URL as string | undefined;
    },
    transformIndexHtml: {
      order: "post",
      handler(html) {
        return convexUrl ? insertEarlyScript(html, httpFirstPageScript(convexUrl)) : html;
      },
    },
  };
}
