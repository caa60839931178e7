/**
 * Material invariants (kept by model/bitTriggers): each bit's counts, trend (`recent`, newest first),
 * `lastPerformedAt`, `bitRooms` and `bitMonths` (none at zero) and each set's `setReviews` equal a recount of the
 * ratings of existing bits; a rating carries its set's owner, mic, time and month; a bit's tag rows are its tags.
 */
import type { Doc } from "../../_generated/dataModel";
import { tagKey } from "../../lib/bitRules";
import { RECENT_RATINGS } from "../bits";
import { checkRows, type Finisher, type PageCheck, type PageCtx } from "./page";

const FIELDS = ["performed", "landed", "okay", "flat"] as const;
type Counts = Record<(typeof FIELDS)[number], number>;

/** Adds one scope's counts under `stored:<scope>:<field>` or `rows:<scope>:<field>`. */
function addCounts(p: PageCtx, side: "stored" | "rows", scope: string, key: string, c: Counts): void {
  for (const f of FIELDS) if (c[f] !== 0) p.counters.add(`${side}:${scope}:${f}`, key, c[f]);
}

const one = (r: Doc<"bitRatings">): Counts => ({
  performed: 1,
  landed: r.rating === "landed" ? 1 : 0,
  okay: r.rating === "okay" ? 1 : 0,
  flat: r.rating === "flat" ? 1 : 0,
});

const bitRatings: PageCheck = (p) => {
  const bits = new Map<string, Promise<Doc<"bits"> | null>>();
  const bitOf = (r: Doc<"bitRatings">) => {
    let b = bits.get(r.bitId);
    if (!b) bits.set(r.bitId, (b = p.ctx.db.get("bits", r.bitId)));
    return b;
  };
  return checkRows(p, "bitRatings", async (r) => {
    const [bit, set] = await Promise.all([bitOf(r), p.ctx.db.get("performances", r.performanceId)]);
    if (set === null) p.problems.push(`bitRatings ${r._id}: set ${r.performanceId} does not exist`);
    else if (
      set.userId !== r.userId ||
      set.sceneItemId !== r.sceneItemId ||
      set.performedAt !== r.performedAt ||
      set.performanceDate.slice(0, 7) !== r.month
    ) {
      p.problems.push(`bitRatings ${r._id}: owner, mic, time or month differs from its set ${set._id}`);
    }
    if (bit === null) return;
    if (bit.userId !== r.userId) p.problems.push(`bitRatings ${r._id}: bit ${bit._id} belongs to someone else`);
    const c = one(r);
    addCounts(p, "rows", "bit", r.bitId, c);
    if (r.sceneItemId !== undefined) addCounts(p, "rows", "room", `${r.bitId}|${r.sceneItemId}`, c);
    addCounts(p, "rows", "month", `${r.bitId}|${r.month}`, c);
    addCounts(p, "rows", "set", r.performanceId, c);
  });
};

const bits: PageCheck = (p) =>
  checkRows(p, "bits", async (bit) => {
    addCounts(p, "stored", "bit", bit._id, bit);
    const [latest, tagRows] = await Promise.all([
      p.ctx.db
        .query("bitRatings")
        .withIndex("by_bit_and_time", (q) => q.eq("bitId", bit._id))
        .order("desc")
        .take(RECENT_RATINGS),
      p.ctx.db
        .query("bitTags")
        .withIndex("by_bit", (q) => q.eq("bitId", bit._id))
        .take(64),
    ]);
    const recent = latest.map((r) => r.rating);
    if (JSON.stringify(recent) !== JSON.stringify(bit.recent)) {
      p.problems.push(`bits ${bit._id}: trend ${bit.recent.join(",")} but its newest ratings are ${recent.join(",")}`);
    }
    if (latest[0]?.performedAt !== bit.lastPerformedAt) {
      p.problems.push(
        `bits ${bit._id}: lastPerformedAt ${bit.lastPerformedAt} but its newest rating is at ${latest[0]?.performedAt}`,
      );
    }
    const tags = [...new Set(bit.tags.map(tagKey))].sort();
    const rows = tagRows.map((t) => t.tag).sort();
    const stale = tagRows.some(
      (t) => t.archived !== bit.archived || t.status !== bit.status || t.titleKey !== bit.titleKey,
    );
    if (JSON.stringify(tags) !== JSON.stringify(rows) || stale) {
      p.problems.push(`bits ${bit._id}: its tag rows do not match its tags, status, title or archived flag`);
    }
  });

/** A per-mic or per-month row: its counts, and never an empty row. */
function derivedRows(table: "bitRooms" | "bitMonths", scope: "room" | "month"): PageCheck {
  return (p) =>
    checkRows(p, table, async (row) => {
      const key = `${row.bitId}|${"sceneItemId" in row ? row.sceneItemId : row.month}`;
      if (row.performed <= 0) p.problems.push(`${table} ${row._id}: ${row.performed} sets kept`);
      if ((await p.ctx.db.get("bits", row.bitId)) === null) {
        p.problems.push(`${table} ${row._id}: bit ${row.bitId} does not exist`);
        return;
      }
      p.counters.add(`${table}:rows`, key);
      addCounts(p, "stored", scope, key, row);
    });
}

const setReviews: PageCheck = (p) =>
  checkRows(p, "setReviews", async (review) => {
    if ((await p.ctx.db.get("performances", review.performanceId)) === null) {
      p.problems.push(`setReviews ${review._id}: set ${review.performanceId} does not exist`);
    }
    p.counters.add("setReviews:rows", review.performanceId);
    addCounts(p, "stored", "set", review.performanceId, { ...review, performed: review.rated });
  });

export const bitPages = {
  bitRatings,
  bits,
  bitRooms: derivedRows("bitRooms", "room"),
  bitMonths: derivedRows("bitMonths", "month"),
  setReviews,
};

/** Every stored count against the recount of the ratings; one row per bit and mic, month or set. */
export const finishBits: Finisher = (totals, problems) => {
  for (const scope of ["bit", "room", "month", "set"] as const) {
    for (const f of FIELDS) {
      const stored = totals.counter(`stored:${scope}:${f}`);
      const rows = totals.counter(`rows:${scope}:${f}`);
      for (const key of new Set([...stored.keys(), ...rows.keys()])) {
        const a = stored.get(key) ?? 0;
        const b = rows.get(key) ?? 0;
        if (a !== b) problems.push(`${scope} ${key}: ${f} ${a} but ${b} from its ratings`);
      }
    }
  }
  for (const table of ["bitRooms", "bitMonths", "setReviews"]) {
    for (const [key, n] of totals.counter(`${table}:rows`)) {
      if (n > 1) problems.push(`${table}: ${n} rows for ${key}`);
    }
  }
};
