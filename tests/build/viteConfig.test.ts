/**
 * `npm run dev` and `vite build` load vite.config.ts quietly: Vite warns about every import that
 * its future native config loader (plain Node ESM) could not resolve, such as a path without
 * its file extension anywhere in the config's import graph.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, loadConfigFromFile } from "vite";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

test("the Vite config loads without warnings", async () => {
  const warnings: string[] = [];
  const logger = createLogger("warn");
  logger.warn = (message) => void warnings.push(message);
  logger.warnOnce = (message) => void warnings.push(message);
  const loaded = await loadConfigFromFile(
    { command: "serve", mode: "development" },
    path.join(root, "vite.config.ts"),
    root,
    "warn",
    logger,
  );
  expect(loaded?.config.plugins?.length).toBeGreaterThan(0);
  expect(warnings).toEqual([]);
});
