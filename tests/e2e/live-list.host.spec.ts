import { randomUUID } from "node:crypto";
import { encode } from "uqr";
import { DEMO_ADMIN, expect, test } from "./fixtures";
import { createOpenMic } from "./support/scene";
import { toast } from "./support/ui";

const LIVE = { timeout: 5_000 };

test.describe("the host's irreversible actions ask first", () => {
  test.describe.configure({ timeout: 150_000 });

  test("drop out, the lottery draw and closing the list ask for confirmation; a closed list reopens tonight", async ({
    page,
    signIn,
    runFunction,
  }) => {
    const tok = `zh${randomUUID().slice(0, 8)}`;
    const id = await createOpenMic(runFunction, `Careful Mic ${tok}`, "Careful Room");
    await signIn(page, DEMO_ADMIN);
    await page.goto(`/event/${id}`);
    const form = page.getByRole("form", { name: "Open tonight's list" });
    await form.getByRole("radio", { name: "Lottery" }).click();
    await form.getByRole("button", { name: "Open tonight's list" }).click();
    // Before the draw the list says when it will be, not that it happened.
    await expect(page.getByText(/^Lottery draw at \d{1,2}:\d{2} [AP]M/)).toBeVisible(LIVE);
    await expect(page.getByText(/Lottery drawn/)).toHaveCount(0);
    await page.getByLabel("Walk-in name").fill("Walk-in Wally");
    await page.getByRole("button", { name: "Add walk-in" }).click();
    await page.getByRole("button", { name: "Sign up for tonight" }).click();
    await expect(page.getByText(/^In the lottery: the draw is at/)).toBeVisible(LIVE);

    // Dropping out asks first; Cancel keeps the place.
    await page.getByRole("button", { name: "Drop out" }).click();
    const drop = page.getByRole("alertdialog", { name: "Drop out of tonight's list?" });
    await drop.getByRole("button", { name: "Cancel" }).click();
    await expect(drop).toHaveCount(0);
    await expect(page.getByText(/^In the lottery: the draw is at/)).toBeVisible();

    // The draw asks first too.
    await page.getByRole("button", { name: "Draw the lottery now" }).click();
    const draw = page.getByRole("alertdialog", { name: "Draw the lottery now?" });
    await draw.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: "Draw the lottery now" })).toBeVisible();
    await page.getByRole("button", { name: "Draw the lottery now" }).click();
    await draw.getByRole("button", { name: "Draw now" }).click();
    await expect(page.getByText(/^Lottery drawn at \d{1,2}:\d{2} [AP]M/)).toBeVisible(LIVE);

    // Closing asks first; a mis-tap is undone with Reopen, and the names are still there.
    await page.getByRole("button", { name: "Close the list" }).click();
    const close = page.getByRole("alertdialog", { name: "Close tonight's list?" });
    await close.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: "Close the list" })).toBeVisible();
    await page.getByRole("button", { name: "Close the list" }).click();
    await close.getByRole("button", { name: "Close the list" }).click();
    await expect(page.getByText("This list is closed.")).toBeVisible(LIVE);
    await expect(page.getByRole("button", { name: "Add walk-in" })).toHaveCount(0);
    await page.getByRole("button", { name: "Reopen the list" }).click();
    await expect(toast(page, "The list is open again")).toBeVisible(LIVE);
    await expect(page.getByText("This list is closed.")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add walk-in" })).toBeVisible();
    await expect(page.getByText("Walk-in Wally").first()).toBeVisible();

    // The room screen fills the screen without the app's navigation: who is up with the timer and its
    // light, and a QR code to the night's page.
    await page.getByRole("button", { name: "Walk-in Wally is up now" }).click();
    const screen = await page.context().newPage();
    await screen.goto(`/event/${id}/list/screen`);
    await expect(screen.getByRole("heading", { level: 1, name: `Careful Mic ${tok}` })).toBeVisible();
    await expect(screen.getByRole("navigation")).toHaveCount(0);
    await expect(screen.getByRole("banner")).toHaveCount(0);
    await expect(screen.getByRole("img", { name: "QR code: open tonight's list to sign up" })).toBeVisible();
    await expect(screen.getByRole("group", { name: "Up now" })).toContainText("Walk-in Wally");
    await expect(screen.getByRole("group", { name: "Set timer" })).toContainText("Green");
    await expect(page.getByRole("group", { name: "Set timer" })).toContainText("Green");
  });
});

test("the host corrects a walk-in's name, within its cap; the room screen shows the new name", async ({
  page,
  signIn,
  runFunction,
}) => {
  test.setTimeout(120_000);
  const tok = `zw${randomUUID().slice(0, 8)}`;
  const id = await createOpenMic(runFunction, `Typo Mic ${tok}`, "Typo Room");
  await signIn(page, DEMO_ADMIN);
  await page.goto(`/event/${id}`);
  await page
    .getByRole("form", { name: "Open tonight's list" })
    .getByRole("button", { name: "Open tonight's list" })
    .click();
  await page.getByLabel("Walk-in name").fill("Wlly");
  await page.getByRole("button", { name: "Add walk-in" }).click();
  const screen = await page.context().newPage();
  await screen.goto(`/event/${id}/list/screen`);
  await expect(screen.getByRole("group", { name: "On deck" })).toContainText("Wlly", LIVE);

  await page.getByRole("button", { name: "Edit Wlly's name" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit walk-in name" });
  const field = dialog.getByRole("textbox", { name: "Walk-in name" });
  await expect(field).toHaveValue("Wlly");
  await expect(dialog.getByText("Up to 60 characters.")).toBeVisible();
  await field.fill("W".repeat(61));
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(dialog.getByText("Names must be 60 characters or fewer")).toBeVisible();
  await expect(dialog.getByText("61 / 60 characters")).toBeVisible();
  await field.fill("  ");
  await expect(dialog.getByText("Please enter the comedian's name")).toBeVisible();
  await field.fill("Walk-in Willy");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(toast(page, "Name updated")).toBeVisible(LIVE);
  await expect(page.getByRole("list", { name: "Running order" }).getByText("Walk-in Willy")).toBeVisible(LIVE);
  await expect(screen.getByRole("group", { name: "On deck" })).toContainText("Walk-in Willy", LIVE);
});

/** The modules of a QR code drawn by QrCode (one SVG path of unit squares), as "x,y" keys. */
function drawnModules(d: string): Set<string> {
  return new Set([...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${m[1]},${m[2]}`));
}

/** Whether `modules` is a QR code of `text` at some error-correction level and quiet zone. */
function isQrOf(modules: Set<string>, extent: number, text: string): boolean {
  for (const ecc of ["L", "M", "Q", "H"] as const) {
    for (let border = 0; border <= 4; border++) {
      const { data, size } = encode(text, { ecc, border });
      if (size !== extent) continue;
      const dark = new Set<string>();
      data.forEach((row, y) => row.forEach((on, x) => on && dark.add(`${x},${y}`)));
      if (dark.size === modules.size && [...dark].every((k) => modules.has(k))) return true;
    }
  }
  return false;
}

test("the room screen shows the waitlist, and its QR code opens the night's page", async ({
  page,
  signIn,
  runFunction,
  appUrl,
}) => {
  test.setTimeout(120_000);
  const tok = `zq${randomUUID().slice(0, 8)}`;
  const id = await createOpenMic(runFunction, `Room Mic ${tok}`, "Room Room");
  await signIn(page, DEMO_ADMIN);
  await page.goto(`/event/${id}`);
  const form = page.getByRole("form", { name: "Open tonight's list" });
  await form.getByLabel("Spots").fill("1");
  await form.getByRole("button", { name: "Open tonight's list" }).click();
  for (const name of ["Walk-in Wally", "Walk-in Wanda"]) {
    await page.getByLabel("Walk-in name").fill(name);
    await page.getByRole("button", { name: "Add walk-in" }).click();
    await expect(page.getByText(name).first()).toBeVisible(LIVE);
  }

  const screen = await page.context().newPage();
  await screen.goto(`/event/${id}/list/screen`);
  await expect(screen.getByRole("group", { name: "On deck" })).toContainText("Walk-in Wally", LIVE);
  await expect(screen.getByRole("list", { name: "Waitlist" }).getByRole("listitem")).toHaveText(["Walk-in Wanda"]);

  const qr = screen.getByRole("img", { name: "QR code: open tonight's list to sign up" });
  const extent = Number(((await qr.getAttribute("viewBox")) ?? "").split(" ")[2]);
  const modules = drawnModules((await qr.locator("path").getAttribute("d")) ?? "");
  expect(isQrOf(modules, extent, `${appUrl}/event/${id}`)).toBe(true);
  // The page it opens is the night's page, where the list takes sign-ups.
  await screen.goto(`${appUrl}/event/${id}`);
  await expect(screen.getByRole("heading", { level: 1, name: `Room Mic ${tok}` })).toBeVisible();
});
