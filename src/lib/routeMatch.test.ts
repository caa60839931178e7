import { describe, expect, test } from "vitest";
import { matchPath, matchRoutes, navigationTarget, type RouteObject } from "./routeMatch";

const table: RouteObject<string>[] = [
  { path: "/event/:id/list/screen", element: "screen" },
  {
    element: "layout",
    children: [
      { path: "/", element: "home" },
      { path: "event/:id", element: "event" },
      { path: "bits/new", element: "new bit" },
      { path: "bits/:id", element: "bit" },
      { element: "gate", children: [{ path: "scene", element: "scene", handle: "public" }] },
      { path: "onboarding", element: "session", children: [{ index: true, element: "welcome redirect" }] },
      { path: "*", element: "not found" },
    ],
  },
];

const branch = (pathname: string) => matchRoutes(table, pathname)?.map((m) => m.route.element);

describe("matchRoutes", () => {
  test("matches the branch, outermost first, through layout routes without a path", () => {
    expect(branch("/scene")).toEqual(["layout", "gate", "scene"]);
    expect(branch("/")).toEqual(["layout", "home"]);
    expect(matchRoutes(table, "/scene")![2].route.handle).toBe("public");
  });

  test("ignores case and trailing slashes, as React Router does", () => {
    expect(branch("/Scene/")).toEqual(["layout", "gate", "scene"]);
  });

  test("the most specific route wins: static over parameter over splat, an index over its parent", () => {
    expect(branch("/bits/new")).toEqual(["layout", "new bit"]);
    expect(branch("/bits/b1")).toEqual(["layout", "bit"]);
    expect(branch("/event/e1/list/screen")).toEqual(["screen"]);
    expect(branch("/onboarding")).toEqual(["layout", "session", "welcome redirect"]);
    expect(branch("/scenery")).toEqual(["layout", "not found"]);
    expect(branch("/event/e1/other")).toEqual(["layout", "not found"]);
  });

  test("decodes parameters and gives every match of the branch all of them", () => {
    const matches = matchRoutes(table, "/event/a%20b%2Fc")!;
    expect(matches.map((m) => m.params)).toEqual([{ id: "a b/c" }, { id: "a b/c" }]);
    expect(matches[1].pathname).toBe("/event/a%20b%2Fc");
    expect(matchRoutes(table, "/nowhere/else")![1].params).toEqual({ "*": "nowhere/else" });
  });

  test("a table without a catch-all matches nothing outside it", () => {
    expect(matchRoutes([{ path: "/a", element: "a" }], "/b")).toBeNull();
  });
});

describe("matchPath", () => {
  test("with end: false, matches the path's start by whole segments", () => {
    expect(matchPath({ path: "/scene", end: false }, "/scene/x")?.pathname).toBe("/scene");
    expect(matchPath({ path: "/scene", end: false }, "/scenery")).toBeNull();
    expect(matchPath("/scene", "/scene/x")).toBeNull();
    expect(matchPath("/notifications", "/notifications/")).toEqual({ params: {}, pathname: "/notifications" });
  });
});

describe("where a navigation goes", () => {
  const here = "https://stagetime.example/scene?q=1";
  test("paths and same-origin URLs stay in the app; another site is a page load; scripts go nowhere", () => {
    expect(navigationTarget("/event/abc?x=1#top", here)).toEqual({ path: "/event/abc?x=1#top" });
    expect(navigationTarget("https://stagetime.example/bits", here)).toEqual({ path: "/bits" });
    expect(navigationTarget("//evil.example/x", here)).toEqual({ site: "https://evil.example/x" });
    expect(navigationTarget("/\\evil.example", here)).toEqual({ site: "https://evil.example/" });
    expect(navigationTarget("https://accounts.google.com/o", here)).toEqual({ site: "https://accounts.google.com/o" });
    for (const script of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>1</script>"])
      expect(navigationTarget(script, here), script).toBeNull();
  });
});
