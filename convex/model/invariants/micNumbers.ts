/**
 * A mic's numbers against a recount: each `micNights` row against its list,
 * spots and mic (as the list trigger would write it now), and each
 * `micNumberSummaries` row and the mic's short line against the latest closed
 * nights summed again. Every closed night's mic has a summary.
 */
import type { Doc } from "../../_generated/dataModel";
import { expectedNight, latestClosedNights, lineOf, sameValue, summariseNights, summaryRow } from "../micNumbers";
import { checkRows, type PageCheck, type PageCtx } from "./page";

/** The stored row's fields against the expected ones (system fields aside), one problem line per field. */
function compare(p: PageCtx, what: string, stored: Record<string, unknown>, expected: Record<string, unknown>): void {
  const keys = new Set([...Object.keys(stored), ...Object.keys(expected)]);
  for (const key of keys) {
    if (key === "_id" || key === "_creationTime") continue;
    if (sameValue(stored[key], expected[key])) continue;
    const [a, b] = [JSON.stringify(stored[key] ?? null), JSON.stringify(expected[key] ?? null)];
    p.problems.push(`${what}: ${key} is ${a}, a recount says ${b}`);
  }
}

async function checkNight(p: PageCtx, row: Doc<"micNights">): Promise<void> {
  const what = `micNights ${row._id}`;
  const list = await p.ctx.db.get("nightLists", row.listId);
  if (list === null) {
    p.problems.push(`${what}: list ${row.listId} does not exist`);
    return;
  }
  compare(p, what, row, await expectedNight(p.ctx, list, row));
  if (row.closed && (await summaryRow(p.ctx, row.micId)) === null) {
    p.problems.push(`${what}: mic ${row.micId} has no numbers summary`);
  }
}

async function checkSummary(p: PageCtx, row: Doc<"micNumberSummaries">): Promise<void> {
  const what = `micNumberSummaries ${row._id}`;
  const [mic, nights] = await Promise.all([
    p.ctx.db.get("sceneItems", row.micId),
    latestClosedNights(p.ctx, row.micId),
  ]);
  if (mic === null) {
    p.problems.push(`${what}: mic ${row.micId} does not exist`);
    return;
  }
  const expected = { micId: row.micId, ...summariseNights(nights) };
  compare(p, what, row, expected);
  const line = lineOf(expected);
  if (!sameValue(mic.numbersLine, line)) {
    p.problems.push(
      `sceneItems ${mic._id}: numbersLine is ${JSON.stringify(mic.numbersLine)}, a recount says ${JSON.stringify(line)}`,
    );
  }
}

const nightPage: PageCheck = (p) => checkRows(p, "micNights", (r) => checkNight(p, r));
const summaryPage: PageCheck = (p) => checkRows(p, "micNumberSummaries", (r) => checkSummary(p, r));

export const micNumberPages = { micNights: nightPage, micNumberSummaries: summaryPage };
