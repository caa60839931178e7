import type { Season } from "@convex/model/season";
import { count, monthName, periodLabel } from "./seasonText";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The headline figures a card shows, those the season holds, at most six. */
export function cardFigures(season: Season): { label: string; value: string }[] {
  const figures: ({ label: string; value: string } | null)[] = [
    season.sets !== undefined ? { label: "Sets", value: season.sets.toLocaleString("en-US") } : null,
    season.minutes !== undefined ? { label: "Minutes on stage", value: season.minutes.toLocaleString("en-US") } : null,
    season.distinctMics !== undefined ? { label: "Mics", value: String(season.distinctMics) } : null,
    season.distinctCities !== undefined ? { label: "Cities", value: String(season.distinctCities) } : null,
    season.longestDayStreak !== undefined
      ? { label: "Longest day streak", value: count(season.longestDayStreak, "day") }
      : null,
    season.longestWeekStreak !== undefined
      ? { label: "Longest week streak", value: count(season.longestWeekStreak, "week") }
      : null,
    season.busiestMonth ? { label: "Busiest month", value: monthName(season.busiestMonth.month) } : null,
  ];
  return figures.filter((f) => f !== null).slice(0, 6);
}

/**
 * Draws the season's share card (1200 × 630, the size link previews use) in
 * the browser and returns it as a PNG. Nothing leaves the device.
 */
export async function seasonCardPng(season: Season): Promise<Blob> {
  const canvas = document.createElement("canvas");
  canvas.width = CARD_WIDTH;
  canvas.height = CARD_HEIGHT;
  const ctx = canvas.getContext("2d");
  if (ctx === null) throw new Error("This browser cannot draw the card.");
  const gradient = ctx.createLinearGradient(0, 0, CARD_WIDTH, CARD_HEIGHT);
  gradient.addColorStop(0, "#1d1537");
  gradient.addColorStop(1, "#5b2a86");
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);

  const font = "'Noto Sans', system-ui, sans-serif";
  ctx.fillStyle = "#ffffff";
  ctx.textBaseline = "top";
  ctx.font = `700 56px ${font}`;
  const title = season.name ? `${season.name}'s season` : "My season";
  ctx.fillText(title, 64, 56, CARD_WIDTH - 128);
  ctx.font = `400 32px ${font}`;
  ctx.fillStyle = "#d9c8f5";
  ctx.fillText(periodLabel(season), 64, 128);

  const figures = cardFigures(season);
  const columns = 3;
  const cellWidth = (CARD_WIDTH - 128) / columns;
  figures.forEach((figure, i) => {
    const x = 64 + (i % columns) * cellWidth;
    const y = 220 + Math.floor(i / columns) * 170;
    ctx.fillStyle = "#ffffff";
    ctx.font = `700 64px ${font}`;
    ctx.fillText(figure.value, x, y, cellWidth - 24);
    ctx.fillStyle = "#d9c8f5";
    ctx.font = `400 28px ${font}`;
    ctx.fillText(figure.label, x, y + 78, cellWidth - 24);
  });
  ctx.fillStyle = "#b79ce6";
  ctx.font = `600 26px ${font}`;
  ctx.fillText("StageTime", 64, CARD_HEIGHT - 64);

  return await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The card could not be drawn."))), "image/png"),
  );
}
