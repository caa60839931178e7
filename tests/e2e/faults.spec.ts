import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_ADMIN, DEMO_COMEDIAN, expect, test } from "./fixtures";
import { toast } from "./support/ui";
import { createOpenMic, expectNoReload, markNoReload, openSceneAt, pageAtVenue } from "./support/scene";

// A backend restart and several browsers on a small shared machine.
test.describe.configure({ timeout: 180_000 });

const reconnecting = (page: Page) => page.getByTestId("connection-banner").getByText("Reconnecting…");
const heartOf = (page: Page, title: string) =>
  page.getByRole("article", { name: title }).getByRole("button", { name: `Favorite ${title}` });

test("kill -9 of the backend mid-journey: the page says it is reconnecting, recovers by itself and keeps acknowledged changes", async ({
  browser,
  signIn,
  runFunction,
  backend,
}) => {
  const tok = `zf${randomUUID().slice(0, 8)}`;
  const kept = `Kept Mic ${tok}`;
  const queued = `Queued Mic ${tok}`;
  await createOpenMic(runFunction, kept, "Fault Room");
  await createOpenMic(runFunction, queued, "Fault Room");

  const comedian = await pageAtVenue(browser);
  await signIn(comedian, DEMO_COMEDIAN);
  await openSceneAt(comedian, tok);
  await expect(heartOf(comedian, kept)).toHaveAttribute("aria-pressed", "false");
  await expect(reconnecting(comedian)).toHaveCount(0);
  await markNoReload(comedian);

  // An acknowledged change: the server answered, the toast says so.
  await heartOf(comedian, kept).click();
  await expect(toast(comedian, "Added to favorites")).toBeVisible();

  await backend.kill9();
  expect(backend.isRunning()).toBe(false);
  await expect(reconnecting(comedian)).toBeVisible({ timeout: 20_000 });

  // A change made while the backend is down waits in the client and goes out after the restart.
  await heartOf(comedian, queued).click();
  await expect(heartOf(comedian, queued)).toHaveAttribute("aria-pressed", "true");

  await backend.restart();
  await expect(reconnecting(comedian)).toHaveCount(0, { timeout: 30_000 });
  await expect(heartOf(comedian, kept)).toHaveAttribute("aria-pressed", "true");
  await expect(heartOf(comedian, queued)).toHaveAttribute("aria-pressed", "true");
  await expectNoReload(comedian);

  // Live updates flow again: another comedian's check-in shows up on this page by itself.
  const other = await pageAtVenue(browser);
  await signIn(other, DEMO_ADMIN);
  await openSceneAt(other, tok);
  await other.getByRole("article", { name: kept }).getByRole("button", { name: "Check In" }).click();
  await expect(comedian.getByRole("article", { name: kept }).getByText("1 check-in", { exact: true })).toBeVisible({
    timeout: 10_000,
  });
  await expectNoReload(comedian);

  // Nothing acknowledged was lost: a fresh load reads it back from the restarted backend.
  await comedian.reload();
  await comedian.getByLabel("Search mics, venues or cities").fill(tok);
  await expect(heartOf(comedian, kept)).toHaveAttribute("aria-pressed", "true");
  await expect(heartOf(comedian, queued)).toHaveAttribute("aria-pressed", "true");
  await expect(comedian.getByRole("article", { name: kept }).getByText("1 check-in", { exact: true })).toBeVisible();

  await other.context().close();
  await comedian.context().close();
});

test("the browser going offline and back: reconnecting, then recovered with nothing lost", async ({
  browser,
  signIn,
  runFunction,
}) => {
  const tok = `zo${randomUUID().slice(0, 8)}`;
  const kept = `Online Mic ${tok}`;
  const queued = `Offline Mic ${tok}`;
  await createOpenMic(runFunction, kept, "Fault Room");
  await createOpenMic(runFunction, queued, "Fault Room");

  const comedian = await pageAtVenue(browser);
  // Chromium's offline emulation blocks new requests but leaves an open
  // WebSocket be, where a real network loss drops it: the sync socket goes
  // through a route that drops it, and refuses new ones, while offline.
  let offline = false;
  const open: Array<{ close: () => Promise<void> }> = [];
  await comedian.routeWebSocket(/\/sync/, async (ws) => {
    if (offline) {
      await ws.close({ code: 1001, reason: "offline" });
      return;
    }
    const server = ws.connectToServer();
    open.push({
      close: async () => {
        await server.close();
        await ws.close({ code: 1001, reason: "offline" });
      },
    });
  });
  await signIn(comedian, DEMO_COMEDIAN);
  await openSceneAt(comedian, tok);
  await markNoReload(comedian);

  await heartOf(comedian, kept).click();
  await expect(toast(comedian, "Added to favorites")).toBeVisible();
  // Let that toast go, so the one after reconnecting is the queued change's.
  await expect(toast(comedian, "Added to favorites")).toHaveCount(0, { timeout: 20_000 });

  offline = true;
  await comedian.context().setOffline(true);
  for (const socket of open.splice(0)) await socket.close();
  await expect(reconnecting(comedian)).toBeVisible({ timeout: 20_000 });
  await heartOf(comedian, queued).click();
  await expect(heartOf(comedian, queued)).toHaveAttribute("aria-pressed", "true");

  offline = false;
  await comedian.context().setOffline(false);
  await expect(reconnecting(comedian)).toHaveCount(0, { timeout: 30_000 });
  // The change made offline reaches the server once the connection is back.
  await expect(toast(comedian, "Added to favorites")).toBeVisible({ timeout: 20_000 });
  await expectNoReload(comedian);

  const other = await pageAtVenue(browser);
  await signIn(other, DEMO_ADMIN);
  await openSceneAt(other, tok);
  await other.getByRole("article", { name: queued }).getByRole("button", { name: "Check In" }).click();
  await expect(comedian.getByRole("article", { name: queued }).getByText("1 check-in", { exact: true })).toBeVisible({
    timeout: 10_000,
  });

  await comedian.reload();
  await comedian.getByLabel("Search mics, venues or cities").fill(tok);
  await expect(heartOf(comedian, kept)).toHaveAttribute("aria-pressed", "true");
  await expect(heartOf(comedian, queued)).toHaveAttribute("aria-pressed", "true");

  await other.context().close();
  await comedian.context().close();
});
