/**
 * The production build's chunks and index.html's inline scripts (issue 18 item 4,
 * issue 35; scripts/criticalChunks.ts, routePreloadPlugin.ts, sceneFirstPagePlugin.ts).
 * Over HTTP/1.1 a browser fetches at most six files at a time from one host, so
 * the scene page must load in a few requests, not one per shared module (it
 * loaded 32 JavaScript files). One real `vite build` with the app's own config,
 * read from rolldown's output: which modules each chunk holds and imports.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import type { OutputChunk, RolldownOutput } from "rolldown";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SHARED_CHUNK } from "../../scripts/criticalChunks";
import { CRITICAL_ROUTES } from "../../scripts/criticalRoutes";
import {
  firstPageArgs,
  HTTP_FIRST_PAGE_GLOBAL,
  openingSceneArgs,
  tonightFirstPageArgs,
} from "../../src/features/scene/list/firstPage";
import { NO_PLAN_FILTERS, tonightArgs } from "../../src/features/scene/tonight/tonightArgs";
import { ROUTE_PRELOADED_GLOBAL } from "../../src/lib/paths";

/** The backend address built into the page (nothing listens there: the scripts' requests are only recorded). */
const BACKEND = "http://127.0.0.1:9";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "stagetime-chunks-"));
let chunks: OutputChunk[] = [];

beforeAll(async () => {
  const saved = process.env.VITE_CONVEX_URL;
  process.env.VITE_CONVEX_URL = BACKEND;
  const output = (await build({
    root,
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "silent",
    build: { outDir, emptyOutDir: true },
  }).finally(() => {
    if (saved === undefined) delete process.env.VITE_CONVEX_URL;
    else process.env.VITE_CONVEX_URL = saved;
  })) as RolldownOutput;
  chunks = output.output.filter((c): c is OutputChunk => c.type === "chunk");
}, 120_000);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

const byFile = () => new Map(chunks.map((c) => [c.fileName, c]));

/** The JavaScript files loaded before a chunk runs: it and its static imports. */
function staticFiles(start: OutputChunk): string[] {
  const files = byFile();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of files.get(file)!.imports) visit(next);
  };
  visit(start.fileName);
  return [...seen];
}

const entry = () => chunks.find((c) => c.isEntry)!;
const page = (module: string) => chunks.find((c) => c.facadeModuleId === path.join(root, module))!;

describe("production chunks", () => {
  test("the entry chunk holds all the entry's static imports, rolldown's runtime too", () => {
    expect(staticFiles(entry())).toEqual([entry().fileName]);
    expect(entry().moduleIds).toContain(path.join(root, "src/main.tsx"));
    expect(entry().moduleIds).toContain("\0rolldown/runtime.js");
  });

  const shared = () => chunks.find((c) => c.name === SHARED_CHUNK && !c.facadeModuleId);

  test("the scene page loads at most four JavaScript files: the entry, the page, its dependencies and those it shares with the landing page", () => {
    const scene = page("src/routes/Scene.tsx");
    const files = new Set([...staticFiles(entry()), ...staticFiles(scene)]);
    const deps = chunks.find((c) => c.name === "scene-deps")!;
    expect([...files].sort()).toEqual(
      [entry().fileName, scene.fileName, deps.fileName, ...(shared() ? [shared()!.fileName] : [])].sort(),
    );
    expect(files.size).toBeLessThanOrEqual(4);
    // What the page draws first is in them (not behind another request).
    expect(deps.moduleIds).toContain(path.join(root, "src/features/scene/list/ScenePage.tsx"));
    const drawn = [...deps.moduleIds, ...(shared()?.moduleIds ?? [])];
    expect(drawn.some((id) => id.endsWith("@radix-ui/themes/dist/esm/components/card.js"))).toBe(true);
  });

  test("the landing page loads at most four: the entry, the page, its dependencies and those it shares, not the scene's", () => {
    const landing = page("src/routes/Landing.tsx");
    const files = new Set([...staticFiles(entry()), ...staticFiles(landing)]);
    expect(files.size).toBeLessThanOrEqual(4);
    expect(files).toContain(chunks.find((c) => c.name === "landing-deps")!.fileName);
    expect(files).not.toContain(chunks.find((c) => c.name === "scene-deps")!.fileName);
    // It shows no dates or times: neither the time helpers nor their time zone library.
    const ids = [...files].flatMap((f) => byFile().get(f)!.moduleIds);
    expect(ids.filter((id) => id.includes("/node_modules/@date-fns/") || id.endsWith("/convex/lib/time.ts"))).toEqual(
      [],
    );
  });

  test("every page is lazy: each route module is its own chunk, outside what the entry loads", () => {
    // A page added to the router (src/routes/**) stays out of the entry without being listed here.
    const routes = chunks.filter((c) => c.facadeModuleId?.startsWith(path.join(root, "src/routes") + path.sep));
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const entryIds = new Set(staticFiles(entry()).flatMap((f) => byFile().get(f)!.moduleIds));
    const pages = [...entryIds].filter((id) => id.startsWith(path.join(root, "src/routes") + path.sep));
    expect(pages).toEqual([]);
    // Nor is the service worker's code (built on its own, src/sw) in the app's chunks.
    const sw = chunks.flatMap((c) => c.moduleIds).filter((id) => id.startsWith(path.join(root, "src/sw") + path.sep));
    expect(sw).toEqual([]);
  });

  test("the entry carries none of the libraries only later screens use", () => {
    // Forms, dates and time zones, toasts, storage, QR codes, calendars, places, the service worker's client, paging helpers.
    const lazyOnly = [
      "zod",
      "react-hook-form",
      "@hookform/resolvers",
      "date-fns",
      "@date-fns/tz",
      "sonner",
      "ics",
      "idb",
      "uqr",
      "use-places-autocomplete",
      "workbox-window",
      "convex-helpers",
      // Convex Auth's sign-in client and its retry test (src/app/SessionProvider.tsx loads them beside the page).
      "@convex-dev/auth",
      "is-network-error",
    ];
    const entryIds = staticFiles(entry()).flatMap((f) => byFile().get(f)!.moduleIds);
    const found = lazyOnly.filter((pkg) => entryIds.some((id) => id.includes(`/node_modules/${pkg}/`)));
    expect(found).toEqual([]);
  });

  test("the entry routes with the app's own router (src/lib/router.tsx), not React Router's 12 KB", () => {
    const ids = entry().moduleIds;
    expect(ids).toContain(path.join(root, "src/lib/router.tsx"));
    expect(chunks.flatMap((c) => c.moduleIds).filter((id) => /\/node_modules\/react-router/.test(id))).toEqual([]);
  });

  test("before its first card the scene loads only the packages it draws with, and none of its later parts", () => {
    // The bench's budget (gzip before the first card) in structure: a package or a part
    // of the page added to these files is JavaScript every visitor waits for.
    const firstLoad = [...new Set([...staticFiles(entry()), ...staticFiles(page("src/routes/Scene.tsx"))])];
    const ids = firstLoad.flatMap((f) => byFile().get(f)!.moduleIds);
    const packageOf = (id: string) => {
      const at = id.lastIndexOf("/node_modules/");
      if (at < 0) return [];
      const [scope, name] = id.slice(at + "/node_modules/".length).split("/");
      return [scope.startsWith("@") ? `${scope}/${name}` : scope];
    };
    const drawnWith = [
      ...["react", "react-dom", "scheduler", "classnames", "@date-fns/tz"],
      // Convex's client (Convex Auth's sign-in client loads beside the page: SessionProvider).
      "convex",
      ...["@radix-ui/themes", "@radix-ui/react-slot", "@radix-ui/react-primitive", "@radix-ui/react-compose-refs"],
      ...["@radix-ui/react-direction", "@radix-ui/react-visually-hidden"],
    ];
    expect([...new Set(ids.flatMap(packageOf))].filter((p) => !drawnWith.includes(p))).toEqual([]);
    const later = [
      "src/features/scene/tonight/TonightSection.tsx",
      "src/features/scene/list/AreaSceneResults.tsx",
      "src/features/scene/filters/SceneFiltersPanel.tsx",
      "src/features/scene/card/EventDialogContent.tsx",
      // The card buttons' flows (useCardActions loads them once the list has painted).
      "src/features/scene/actions/useCheckIn.ts",
      "src/features/scene/actions/useAddToSchedule.ts",
      "src/features/scene/actions/useFavoriteToggle.ts",
      "src/features/scene/actions/useEventActions.ts",
      "src/app/layout/AccountMenu.tsx",
      "src/features/notifications/NotificationBell.tsx",
      // Convex Auth's provider, with Convex's HTTP client it signs in through.
      "src/app/ConvexAuthSession.tsx",
      "node_modules/convex/dist/esm/browser/http_client.js",
      // Convex's validators (`v`): reached only through exports nothing here takes.
      "node_modules/convex/dist/esm/values/validators.js",
      // The other pages' import()s with their preload lists, and what only a signed-in comedian runs.
      "src/app/pageLoaders.ts",
      "src/app/layout/SignedInTasks.tsx",
      "src/features/live-list/ListNotifier.tsx",
      "src/app/gates/useEnsureProfile.ts",
    ];
    expect(later.filter((m) => ids.includes(path.join(root, m)))).toEqual([]);
  });

  test("the entry asks for no page's code but the preloaded ones: the others' import()s and preload lists are in pageLoaders", () => {
    // Each import() in a chunk carries the list of chunks it preloads: for 25 pages, 1.7 KB gzip in the entry.
    const pages = (c: OutputChunk) =>
      c.dynamicImports.filter((f) =>
        byFile()
          .get(f)!
          .facadeModuleId?.startsWith(path.join(root, "src/routes") + path.sep),
      );
    expect(pages(entry()).sort()).toEqual(CRITICAL_ROUTES.map((r) => page(r.module).fileName).sort());
    const loaders = page("src/app/pageLoaders.ts");
    expect(pages(loaders).length).toBeGreaterThanOrEqual(20);
    expect(entry().dynamicImports).toContain(loaders.fileName);
  });

  test("the entry carries no component only lazy pages use (barrels are followed by the names imported)", () => {
    const ids = entry().moduleIds;
    // Radix Themes' index re-exports every component; the entry draws neither a dialog nor a select.
    for (const component of ["dialog.js", "select.js", "card.js", "data-list.js"]) {
      expect(ids.some((id) => id.endsWith(`@radix-ui/themes/dist/esm/components/${component}`))).toBe(false);
    }
  });

  test("each module is in exactly one chunk, and chunks import each other without cycles", () => {
    const owners = new Map<string, string[]>();
    for (const c of chunks) for (const id of c.moduleIds) owners.set(id, [...(owners.get(id) ?? []), c.fileName]);
    expect([...owners].filter(([, files]) => files.length > 1)).toEqual([]);

    const files = byFile();
    const state = new Map<string, "open" | "done">();
    const cycles: string[][] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "open") cycles.push([...trail.slice(trail.indexOf(file)), file]);
      if (state.has(file)) return;
      state.set(file, "open");
      for (const next of files.get(file)!.imports) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const c of chunks) visit(c.fileName, []);
    expect(cycles).toEqual([]);
  });
});

/**
 * Runs the built index.html's inline scripts as a browser would at `pathname`
 * (the scripts carry function source through the config's bundling, so the
 * built page is what is checked): the links they add, the requests they make
 * and what they leave on window.
 */
function runInlineScripts(pathname: string) {
  const html = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const links: Array<{ rel: string; href: string }> = [];
  const requests: Array<{ url: string; init: { method: string; headers: unknown; body: string } }> = [];
  const window: Record<string, unknown> = {
    location: { pathname },
    document: {
      createElement: () => ({ rel: "", href: "", crossOrigin: null }),
      head: { appendChild: (link: { rel: string; href: string }) => links.push(link) },
    },
    fetch: (url: string, init: { method: string; headers: unknown; body: string }) => {
      requests.push({ url, init });
      return new Promise(() => undefined);
    },
    setTimeout: () => 0,
  };
  window.window = window;
  const context = vm.createContext(window);
  for (const script of scripts) vm.runInContext(script, context);
  return { scripts, links, requests, window };
}

describe("index.html's inline scripts, as built", () => {
  test("both sit above the stylesheet and the entry", () => {
    const html = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
    const lastInline = html.lastIndexOf("<script>");
    expect(lastInline).toBeGreaterThan(0);
    expect(lastInline).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(lastInline).toBeLessThan(html.indexOf('<script type="module"'));
  });

  test("on /scene (with or without a trailing slash) they preload the page's chunks and ask for its first page", () => {
    const scene = page("src/routes/Scene.tsx");
    const deps = chunks.find((c) => c.name === "scene-deps")!;
    for (const pathname of ["/scene", "/scene/"]) {
      const { links, requests, window } = runInlineScripts(pathname);
      // The page's chunks first, then Tonight's, the filters' and the distance filter's list's (imported at once, lazily).
      const own = staticFiles(scene).filter((f) => f !== entry().fileName);
      expect(own).toContain(deps.fileName);
      expect(links.every((l) => l.rel === "modulepreload")).toBe(true);
      expect(links.slice(0, own.length).map((l) => l.href)).toEqual([
        `/${scene.fileName}`,
        ...own.filter((f) => f !== scene.fileName).map((f) => `/${f}`),
      ]);
      const later = links.slice(own.length).map((l) => l.href);
      expect(later).toContain(`/${page("src/features/scene/tonight/TonightSection.tsx").fileName}`);
      expect(later).toContain(`/${page("src/features/scene/list/AreaSceneResults.tsx").fileName}`);
      // The filters too: the distance switch shows once the list has painted, its code already in.
      expect(later).toContain(`/${page("src/features/scene/filters/SceneFiltersPanel.tsx").fileName}`);
      expect(window[ROUTE_PRELOADED_GLOBAL]).toBe(true);
      // The list's first page (no saved location here: the plain list) and Tonight's, both at once, the list's first.
      expect(requests.map((r) => r.url)).toEqual([`${BACKEND}/api/query`, `${BACKEND}/api/query`]);
      const left = window[HTTP_FIRST_PAGE_GLOBAL] as Array<{ path: string; args: unknown }>;
      expect(left.map((r) => r.path)).toEqual(["scene:listPage", "tonight:list"]);
      // Convex's /api/query takes application/json only (a text/plain "simple request" is refused: firstPage.ts).
      expect(requests[0].init.headers).toEqual({ "Content-Type": "application/json" });
      expect(JSON.parse(requests[0].init.body)).toEqual({
        path: "scene:listPage",
        format: "convex_encoded_json",
        args: [JSON.parse(JSON.stringify(firstPageArgs(openingSceneArgs(Date.now()))))],
      });
      const tonight = tonightArgs({
        nowMs: Date.now(),
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        area: null,
        type: "all",
        search: "",
        filters: NO_PLAN_FILTERS,
      });
      expect(left[1].args).toEqual(JSON.parse(JSON.stringify(tonightFirstPageArgs(tonight))));
      expect(JSON.parse(requests[1].init.body)).toEqual({
        path: "tonight:list",
        format: "convex_encoded_json",
        args: [left[1].args],
      });
      expect(window[HTTP_FIRST_PAGE_GLOBAL]).toBeDefined();
    }
  });

  test("every critical route is preloaded on its path, with its page's chunk and the chunk its dependencies are grouped in", () => {
    // One table (scripts/criticalRoutes.ts) feeds both plugins: a route preloaded whose
    // dependencies were not grouped, or grouped but not preloaded, shows here.
    expect(new Set(CRITICAL_ROUTES.map((r) => r.path)).size).toBe(CRITICAL_ROUTES.length);
    expect(new Set(CRITICAL_ROUTES.map((r) => r.chunk)).size).toBe(CRITICAL_ROUTES.length);
    for (const route of CRITICAL_ROUTES) {
      const deps = chunks.filter((c) => c.name === route.chunk && !c.facadeModuleId);
      expect(deps, route.chunk).toHaveLength(1);
      const { links, window } = runInlineScripts(route.path);
      const preloaded = links.map((l) => l.href);
      expect(preloaded, route.path).toContain(`/${page(route.module).fileName}`);
      expect(preloaded, route.path).toContain(`/${deps[0].fileName}`);
      // Nothing preloaded that the page does not load, nothing it loads left out (the entry's are in the HTML);
      // then what it imports lazily at once (`soon`), after its own.
      const loads = staticFiles(page(route.module)).filter((f) => !staticFiles(entry()).includes(f));
      const later = (route.soon ?? [])
        .flatMap((m) => staticFiles(page(m)))
        .filter((f) => !staticFiles(entry()).includes(f) && !loads.includes(f));
      expect(preloaded.slice(0, loads.length).sort(), route.path).toEqual(loads.map((f) => `/${f}`).sort());
      expect(preloaded.slice(loads.length).sort(), route.path).toEqual([...new Set(later)].map((f) => `/${f}`).sort());
      expect(window[ROUTE_PRELOADED_GLOBAL], route.path).toBe(true);
    }
  });

  test("on / they preload the landing page and ask for nothing; elsewhere they do nothing", () => {
    const landing = runInlineScripts("/");
    expect(landing.links.map((l) => l.href)).toContain(`/${page("src/routes/Landing.tsx").fileName}`);
    expect(landing.window[ROUTE_PRELOADED_GLOBAL]).toBe(true);
    expect(landing.requests).toEqual([]);

    const dashboard = runInlineScripts("/dashboard");
    expect(dashboard.links).toEqual([]);
    expect(dashboard.requests).toEqual([]);
    expect(dashboard.window[ROUTE_PRELOADED_GLOBAL]).toBeUndefined();
    expect(dashboard.window[HTTP_FIRST_PAGE_GLOBAL]).toBeUndefined();
  });
});
