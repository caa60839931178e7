/** The data invariants every mutation keeps, checked a page at a time (../README.md, "Invariants"). */
import type { QueryCtx } from "../../_generated/server";
import { badgePages, finishBadges } from "./badges";
import { bitPages, finishBits } from "./bits";
import { communityPages, finishCommunity } from "./community";
import { followerPages } from "./followers";
import { linkPages } from "./links";
import { micNumberPages } from "./micNumbers";
import { finishMics, micPages } from "./mics";
import {
  DEFAULT_PAGE_SIZE,
  type DaySegment,
  type Finisher,
  type InvariantPage,
  MAX_PAGE_SIZE,
  newPageCtx,
  type PageCheck,
  type StatsFact,
  type Tally,
  type Totals,
} from "./page";
import { finishStats, joinSegments, statsPages } from "./stats";

export type { InvariantPage } from "./page";

export type InvariantReport = { ok: boolean; problems: string[] };

/** The tables the paged check walks, in the order checkAll walks them. */
export const INVARIANT_PARTS = [
  "sceneItems",
  "checkIns",
  "favorites",
  "scheduleEntries",
  "micClaims",
  "problemReports",
  "performances",
  "performanceDays",
  "venueVisits",
  "userStats",
  "userBadges",
  "profiles",
  "cities",
  "communityTotals",
  "bits",
  "bitRatings",
  "bitRooms",
  "bitMonths",
  "setReviews",
  "micNights",
  "micNumberSummaries",
  "micFollowers",
] as const;
export type InvariantPart = (typeof INVARIANT_PARTS)[number];

/** How each part's pages are checked. */
const PAGES: Record<InvariantPart, PageCheck> = {
  ...micPages,
  ...linkPages,
  ...statsPages,
  ...badgePages,
  ...communityPages,
  ...bitPages,
  ...micNumberPages,
  ...followerPages,
};

/** The comparisons that need every page, in the order their problem lines are listed. */
const FINISHERS: Finisher[] = [finishMics, finishStats, finishBadges, finishCommunity, finishBits];

/**
 * One page of one part of the check. `numItems` is capped at
 * {@link MAX_PAGE_SIZE}.
 */
export async function checkInvariantPage(
  ctx: QueryCtx,
  part: InvariantPart,
  cursor: string | null,
  numItems = DEFAULT_PAGE_SIZE,
): Promise<InvariantPage> {
  const p = newPageCtx(ctx, { cursor, numItems: Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(numItems))) });
  const page = await PAGES[part](p);
  return {
    problems: p.problems,
    continueCursor: page.continueCursor,
    isDone: page.isDone,
    rows: page.page.length,
    tally: { ...p.tally, counters: p.counters.list() },
  };
}

/** What the pages of every part added up to, gathered by {@link PagedCheck.add}. */
export class PagedCheck {
  readonly problems: string[] = [];
  readonly rows: Partial<Record<InvariantPart, number>> = {};
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly segments = new Map<string, DaySegment>();
  private readonly stats: StatsFact[] = [];
  private readonly cities: Tally["cities"] = [];
  private readonly site: Tally["site"] = [];

  add(part: InvariantPart, page: InvariantPage): void {
    this.problems.push(...page.problems);
    this.rows[part] = (this.rows[part] ?? 0) + page.rows;
    for (const [counter, key, n] of page.tally.counters) {
      let m = this.counters.get(counter);
      if (!m) this.counters.set(counter, (m = new Map()));
      m.set(key, (m.get(key) ?? 0) + n);
    }
    for (const seg of page.tally.daySegments) {
      const before = this.segments.get(seg.userId);
      this.segments.set(seg.userId, before ? joinSegments(before, seg) : seg);
    }
    this.stats.push(...page.tally.stats);
    this.cities.push(...page.tally.cities);
    this.site.push(...page.tally.site);
  }

  /** The comparisons that need every page: counters, totals, streaks, badges, site figures. */
  finish(): InvariantReport {
    const totals: Totals = {
      counter: (name) => this.counters.get(name) ?? new Map(),
      segments: this.segments,
      stats: this.stats,
      cities: this.cities,
      site: this.site,
    };
    for (const finish of FINISHERS) finish(totals, this.problems);
    return { ok: this.problems.length === 0, problems: this.problems };
  }
}
