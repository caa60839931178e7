import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";

/**
 * useScenePages and the scene's first page fetched over HTTP with the HTML
 * (src/features/scene/list/useScenePages.ts, firstPage.ts; issue 18 item 4): that
 * page stands in only until a live first page is in, and once one is, it is
 * retired, so a list mounted later never shows it. Here the HTTP answer's
 * titles are rewritten, so what the cards show says where it came from.
 */

type ListQuery = "prewarmed" | "paginated";

/** Answers the page's `POST /api/query` with the real first page, every title rewritten to `snapshot`. */
async function serveSnapshotFirstPage(page: Page, snapshot: string) {
  await page.route(/\/api\/query$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { status: string; value?: { page: Array<{ title: string }> } };
    for (const item of body.value?.page ?? []) item.title = snapshot;
    await route.fulfill({ response, json: body });
  });
}

/**
 * Routes the page's Convex WebSocket: what the backend sends is held back until
 * `release()`, then passed on without the answers to the scene list's queries
 * that `drop` names (the first page subscribed to before the page rendered,
 * or the paginated list's pages, told apart by the page id in their arguments).
 */
async function routeSceneSocket(page: Page, drop: (query: ListQuery) => boolean) {
  const kinds = new Map<number, ListQuery>();
  const held: string[] = [];
  let holding = true;
  let send: ((message: string) => void) | null = null;
  const filter = (text: string): string => {
    const message = JSON.parse(text) as { type: string; modifications?: Array<{ queryId: number }> };
    if (message.type !== "Transition" || !message.modifications) return text;
    message.modifications = message.modifications.filter((m) => {
      const kind = kinds.get(m.queryId);
      return kind === undefined || !drop(kind);
    });
    return JSON.stringify(message);
  };
  await page.routeWebSocket(/\/api\/.*sync/, (ws) => {
    const server = ws.connectToServer();
    send = (text) => ws.send(filter(text));
    ws.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("utf8");
      const sent = JSON.parse(text) as {
        type: string;
        modifications?: Array<{ type: string; queryId: number; udfPath?: string; args?: unknown[] }>;
      };
      for (const m of sent.type === "ModifyQuerySet" ? (sent.modifications ?? []) : []) {
        if (m.type !== "Add" || m.udfPath !== "scene:listPage") continue;
        const args = m.args?.[0] as { paginationOpts?: { id?: unknown } } | undefined;
        kinds.set(m.queryId, args?.paginationOpts?.id === undefined ? "prewarmed" : "paginated");
      }
      server.send(message);
    });
    server.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("utf8");
      if (holding) held.push(text);
      else send!(text);
    });
  });
  return {
    release: () => {
      holding = false;
      for (const text of held.splice(0)) send!(text);
    },
  };
}

/**
 * Opens /scene with a mic of the test's own (so the first page is never empty,
 * whatever the other tests left), the HTTP first page's titles rewritten, and
 * the socket routed (see routeSceneSocket); returns once the rewritten page shows.
 */
async function openSceneOnSnapshot(
  page: Page,
  runFunction: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  drop: (query: ListQuery) => boolean,
) {
  await runFunction("fixtures:insertSceneItem", {
    type: "open_mic",
    recurrence: "weekly",
    dayOfWeek: 1,
    startTimeLocal: "20:30",
    timeZone: "America/New_York",
    title: `First Page Mic ${randomUUID().slice(0, 8)}`,
    venueName: "First Page Room",
    city: "Queens",
  });
  const snapshot = `HTTP Snapshot ${randomUUID().slice(0, 8)}`;
  await serveSnapshotFirstPage(page, snapshot);
  const socket = await routeSceneSocket(page, drop);
  await page.goto("/scene");
  const cards = page.getByTestId("scene-card");
  await expect(cards.first()).toContainText(snapshot);
  return { snapshot, socket, cards };
}

test("the page fetched over HTTP gives way to the live first page as soon as the socket has it", async ({
  page,
  runFunction,
}) => {
  // The list's own pages never answer: only the first page subscribed to before the page rendered does.
  const { snapshot, socket, cards } = await openSceneOnSnapshot(page, runFunction, (query) => query === "paginated");

  socket.release();
  await expect(page.getByText(snapshot)).toHaveCount(0);
  await expect(cards.first()).toBeVisible();
});

test("once the list has its own first page, the page fetched over HTTP is retired: a list mounted later never shows it", async ({
  page,
  runFunction,
}) => {
  // The first page subscribed to before the page rendered never answers; the list's own pages do, until `pagesAnswer` is off.
  let pagesAnswer = true;
  const { snapshot, socket, cards } = await openSceneOnSnapshot(
    page,
    runFunction,
    (query) => query === "prewarmed" || !pagesAnswer,
  );

  socket.release();
  await expect(page.getByText(snapshot)).toHaveCount(0);
  await expect(cards.first()).toBeVisible();

  // Away and back within the page's 30 s (no reload): the list mounts again, and nothing answers it.
  pagesAnswer = false;
  await page.getByRole("link", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/auth/);
  // The scene is gone (the URL changes before the new page has rendered).
  await expect(page.getByRole("heading", { name: "Comedy Scene" })).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Comedy Scene" })).toBeVisible();
  // Not even for a moment: the list's first render has no page to stand in.
  expect(await page.getByText(snapshot).count()).toBe(0);
  await expect(page.getByText(snapshot)).toHaveCount(0);
  await expect(cards).toHaveCount(0);
});
