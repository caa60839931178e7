import type { Plugin } from "vite";
import type { OutputBundle, OutputChunk } from "rolldown";
import { normalPath, ROUTE_PRELOADED_GLOBAL } from "../src/lib/paths.ts";
import { scriptLiteral } from "../src/lib/scriptLiteral.ts";
import type { CriticalRoute } from "./criticalRoutes.ts";
import { insertEarlyScript } from "./earlyScripts.ts";

/**
 * The router loads a page's chunk only after the entry has run, a waterfall on
 * the first load. For the routes given (scripts/criticalRoutes.ts), this plugin adds to
 * index.html a small script that, on that path, asks for the page's chunks as
 * modulepreloads at once, so they download and compile while the entry runs
 * (then the chunks of the modules it imports lazily at once, its `soon`).
 * The script sits above the stylesheet, which would otherwise hold it back
 * until the stylesheet had loaded, and tells the app it did (so the first
 * render waits for that page's code: src/app/router.tsx, routerReady).
 */
export function routePreload(routes: readonly CriticalRoute[]): Plugin {
  return {
    name: "route-preload",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === "chunk");
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const preloads: Record<string, string[]> = {};
        const chunkOf = (module: string) => {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`route-preload: no chunk for ${module}`);
          return chunk;
        };
        for (const { path: pathname, module, soon = [] } of routes) {
          const page = chunkOf(module);
          const files = new Set<string>();
          const visit = (chunk: OutputChunk) => {
            if (files.has(chunk.fileName)) return;
            files.add(chunk.fileName);
            for (const dep of chunk.imports) {
              const next = byFile.get(dep);
              if (next) visit(next);
            }
          };
          visit(page);
          // Then what the page imports lazily at once (its code only fetched now, run when imported).
          for (const later of soon) visit(chunkOf(later));
          // The entry's own imports are already in the page as modulepreload links.
          preloads[pathname] = [...files].filter((f) => !html.includes(f)).map((f) => `/${f}`);
        }
        const script =
          `(function(p){var f=p[(${normalPath.toString()})(location.pathname)];if(!f)return;` +
          `window[${scriptLiteral(ROUTE_PRELOADED_GLOBAL)}]=true;f.forEach(function(h){` +
          `var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.appendChild(l)})})(` +
          `${scriptLiteral(preloads)})`;
        return insertEarlyScript(html, script);
      },
    },
  };
}
