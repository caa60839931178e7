import type { Page, WebSocketRoute } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_COMEDIAN, expect, test } from "./fixtures";

/**
 * The public scene does not wait for the session (issue 18 item 4): a visitor's
 * scene queries go out at once, and a signed-in comedian's own state (the Add
 * Event button, their favourites) appears once the backend has confirmed the
 * session, never an anonymous answer in its place.
 */

type Frames = { sent: string[] };

/** Records what the page sends over the Convex WebSocket, and holds back its
 * Authenticate messages until `release()` (a session the backend is slow to confirm). */
async function interceptConvexSocket(page: Page, opts: { holdAuth: boolean }) {
  const frames: Frames = { sent: [] };
  const held: Array<{ server: WebSocketRoute; message: string }> = [];
  let holding = opts.holdAuth;
  await page.routeWebSocket(/\/api\/.*sync/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("utf8");
      frames.sent.push(text);
      if (holding && text.includes('"type":"Authenticate"')) held.push({ server, message: text });
      else server.send(message);
    });
  });
  return {
    frames,
    heldCount: () => held.length,
    release: () => {
      holding = false;
      for (const { server, message } of held.splice(0)) server.send(message);
    },
  };
}

const typesSent = (frames: Frames) => frames.sent.map((f) => (JSON.parse(f) as { type: string }).type);

test("a signed-out visitor's scene asks for its cards straight away, with no session round trip", async ({
  page,
  runFunction,
}) => {
  await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 2,
    startTimeLocal: "20:00",
    timeZone: "America/New_York",
    title: `Startup Mic ${randomUUID().slice(0, 8)}`,
    venueName: "Startup Room",
    city: "Queens",
  });
  const socket = await interceptConvexSocket(page, { holdAuth: false });
  await page.goto("/scene");
  await expect(page.getByTestId("scene-card").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add Event" })).toHaveCount(0);
  // The scene's page query went out over a socket that never carried a token.
  expect(socket.frames.sent.some((f) => f.includes('"udfPath":"scene:listPage"'))).toBe(true);
  expect(typesSent(socket.frames)).not.toContain("Authenticate");
});

test("a signed-in comedian sees the scene before the session is confirmed, then their own state", async ({
  page,
  signIn,
  runFunction,
}) => {
  const tok = `zq${randomUUID().slice(0, 8)}`;
  const title = `Startup Fave ${tok}`;
  await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 5,
    startTimeLocal: "21:00",
    timeZone: "America/New_York",
    title,
    venueName: `Fave Room ${tok}`,
    city: "Brooklyn",
  });
  await signIn(page, DEMO_COMEDIAN);
  await page.goto("/scene");
  await page.getByLabel("Search mics, venues or cities").fill(tok);
  const heart = page.getByRole("article", { name: title }).getByRole("button", { name: `Favorite ${title}` });
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "true");

  // Reload with the backend's confirmation of the session held back.
  const socket = await interceptConvexSocket(page, { holdAuth: true });
  await page.reload();
  await expect(page.getByTestId("scene-card").first()).toBeVisible();
  expect(socket.heldCount()).toBeGreaterThan(0);
  // Not taken for a signed-out visitor meanwhile, and nothing of the comedian's shown yet.
  await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Add Event" })).toHaveCount(0);
  expect(socket.frames.sent.some((f) => f.includes('"udfPath":"scene:viewerState"'))).toBe(false);
  await page.getByLabel("Search mics, venues or cities").fill(tok);
  const heartAgain = page.getByRole("article", { name: title }).getByRole("button", { name: `Favorite ${title}` });
  await expect(heartAgain).toHaveAttribute("aria-pressed", "false");

  socket.release();
  await expect(page.getByRole("link", { name: "Add Event" })).toBeVisible();
  await expect(heartAgain).toHaveAttribute("aria-pressed", "true");
  // Leave the demo comedian's favourites as they were.
  await heartAgain.click();
  await expect(heartAgain).toHaveAttribute("aria-pressed", "false");
});

test("the scene's first page is asked for with the socket's first messages and shows before the list's own query answers", async ({
  page,
  runFunction,
}) => {
  const title = `Early Mic ${randomUUID().slice(0, 8)}`;
  await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 3,
    startTimeLocal: "19:30",
    timeZone: "America/New_York",
    title,
    venueName: "Early Room",
    city: "Manhattan",
  });
  // Everything the page sends from the paginated list's subscription on (a page
  // id in its arguments) is held back, in order, so only the first page asked
  // for before the page rendered can answer.
  const sent: string[] = [];
  const held: string[] = [];
  let server: WebSocketRoute | null = null;
  let holding = true;
  await page.routeWebSocket(/\/api\/.*sync/, (ws) => {
    server = ws.connectToServer();
    ws.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("utf8");
      sent.push(text);
      if (holding && (held.length > 0 || /"paginationOpts":\{[^}]*"id":/.test(text))) held.push(text);
      else server!.send(message);
    });
  });
  await page.goto("/scene");
  await expect(page.getByTestId("scene-card").first()).toBeVisible();
  expect(held.length).toBeGreaterThan(0);
  const firstQuerySet = sent.find((f) => f.includes('"type":"ModifyQuerySet"'));
  expect(firstQuerySet).toContain('"udfPath":"scene:listPage"');

  holding = false;
  for (const text of held.splice(0)) server!.send(text);
  await expect(page.getByTestId("result-count")).toBeVisible();
  await page.getByLabel("Search mics, venues or cities").fill(title);
  await expect(page.getByRole("article", { name: title })).toBeVisible();
});

test("the scene's first cards come over HTTP with the page, before the WebSocket has answered anything", async ({
  page,
  runFunction,
}) => {
  // At least one mic, whatever the other tests left (its place on the first page depends on theirs).
  const title = `Http Mic ${randomUUID().slice(0, 8)}`;
  await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 4,
    startTimeLocal: "19:00",
    timeZone: "America/New_York",
    title,
    venueName: "Http Room",
    city: "Bronx",
  });
  // The page's WebSocket reaches no backend: whatever it asks goes unanswered.
  const sent: string[] = [];
  await page.routeWebSocket(/\/api\/.*sync/, (ws) => {
    ws.onMessage((message) => void sent.push(typeof message === "string" ? message : message.toString("utf8")));
  });
  const httpQueries: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/query")) httpQueries.push(request.postData() ?? "");
  });
  await page.goto("/scene");
  await expect(page.getByTestId("scene-card").first()).toBeVisible();
  // Tonight fills in from its page too (its rows, or that nothing is on).
  await expect(
    page
      .getByTestId("tonight")
      .getByTestId(/^tonight-(night|empty)$/)
      .first(),
  ).toBeVisible();
  // The list's first page, then Tonight's (both asked for at once, the list's first).
  expect(httpQueries.map((q) => JSON.parse(q) as { path: string; format: string })).toEqual([
    expect.objectContaining({ path: "scene:listPage", format: "convex_encoded_json" }),
    expect.objectContaining({ path: "tonight:list", format: "convex_encoded_json" }),
  ]);
  // The socket did ask (the live copies), and got nothing back.
  expect(sent.some((f) => f.includes('"udfPath":"scene:listPage"'))).toBe(true);
  expect(sent.some((f) => f.includes('"udfPath":"tonight:list"'))).toBe(true);
  await expect(page.getByText("Loading StageTime…")).toHaveCount(0);
});

test("with the distance filter left on, the area's first cards come over HTTP with the page", async ({
  page,
  runFunction,
}) => {
  const title = `Near Http Mic ${randomUUID().slice(0, 8)}`;
  await runFunction<string>("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 4,
    startTimeLocal: "19:00",
    timeZone: "America/New_York",
    title,
    venueName: "Near Http Room",
    city: "New York",
    latitude: 40.7306,
    longitude: -73.9866,
  });
  // Left on ten minutes ago, 5 miles around the mic; no location permission, and a socket that answers nothing.
  await page.addInitScript(() => {
    const entry = { lat: 40.7306, lng: -73.9866, ts: Date.now() - 10 * 60_000, radiusMiles: 5 };
    localStorage.setItem("userLocation", JSON.stringify(entry));
  });
  await page.routeWebSocket(/\/api\/.*sync/, () => undefined);
  const httpQueries: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/query")) httpQueries.push(request.postData() ?? "");
  });
  await page.goto("/scene");
  // Cards with their distance: the area's list (the plain list's carry none).
  await expect(page.getByTestId("scene-card").first().getByTestId("distance")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Filter by distance" })).toBeChecked();
  await expect
    .poll(() => httpQueries.map((q) => (JSON.parse(q) as { path: string }).path))
    .toEqual(["sceneArea:listArea", "tonight:list"]);
});

test("the scene renders as itself at once, with no 'Loading StageTime…' in between", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __loadingSeen: string[] }).__loadingSeen = seen;
    new MutationObserver(() => {
      if (document.getElementById("root")?.textContent?.includes("Loading StageTime…")) seen.push("loading");
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto("/scene");
  await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __loadingSeen: string[] }).__loadingSeen)).toEqual([]);
});

test("scene cards paint without a backdrop blur, and the first card's paint is reported (Element Timing)", async ({
  page,
}) => {
  // The page's background is plain, so a translucent panel's 64 px backdrop blur
  // shows nothing, yet a browser compositing in software redraws it every frame.
  await page.addInitScript(() => {
    const painted: string[] = [];
    (window as unknown as { __painted: string[] }).__painted = painted;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        painted.push((entry as PerformanceEntry & { identifier: string }).identifier);
    }).observe({ type: "element", buffered: true });
  });
  await page.goto("/scene");
  const card = page.getByTestId("scene-card").first();
  await expect(card).toBeVisible();
  const backdrop = await card.evaluate((el) => {
    const style = getComputedStyle(el, "::before");
    return style.backdropFilter || style.getPropertyValue("-webkit-backdrop-filter") || "none";
  });
  expect(backdrop).toBe("none");
  // What the bench times as "first scene card" (tests/bench/pageTimeline.ts).
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __painted: string[] }).__painted))
    .toContain("scene-card");
});
