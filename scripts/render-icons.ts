/**
 * Renders the app icons in public/icons/ from public/favicon.svg with the machine's Chromium
 * (no image tool needed): the sizes install prompts and home screens ask for, and a maskable
 * one whose artwork sits inside the 80 % safe zone on a full-bleed background.
 * Run: npx tsx scripts/render-icons.ts
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const svg = fs.readFileSync(path.join(root, "public/favicon.svg"), "utf8");
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
// The favicon's own background (Radix violet 9), so the maskable padding matches it.
const ACCENT = "#6e56cf";

const icons = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "maskable-512.png", size: 512, maskable: true },
  { file: "apple-touch-icon-180.png", size: 180, maskable: true },
  { file: "shortcut-96.png", size: 96, maskable: false },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  const page = await browser.newPage();
  for (const { file, size, maskable } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const inner = maskable ? Math.round(size * 0.7) : size;
    await page.setContent(
      `<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;` +
        `background:${maskable ? ACCENT : "transparent"}"><img src="${dataUrl}" width="${inner}" height="${inner}"></body>`,
    );
    await page.screenshot({ path: path.join(root, "public/icons", file), omitBackground: !maskable });
    console.log(`public/icons/${file}`);
  }
} finally {
  await browser.close();
}
