/** What the tonight tests share: the query arguments, one page of tonight (with tomorrow when empty), every page, and the Wednesday evening they run at. */
import { api } from "../_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "../lib/time";
import { NO_PLAN_FILTERS, type PlanFilters } from "../model/tonight";
import type { Id } from "../_generated/dataModel";
import { createSceneItem, type SceneItemOverrides, type TestBackend, type TestUser } from "./test.setup";

export const MANHATTAN = { lat: 40.7411, lng: -73.9897 };
export const NY = "America/New_York";
export const DAY = 24 * 60 * 60 * 1000;

/** Wednesday 2026-11-25, noon in New York. */
export const WED_NOON = Date.parse("2026-11-25T12:00:00-05:00");

/**
 * The plan filters' first two Wednesday mics: "Free early" (18:00, free, checked in 3 days before
 * WED_NOON) and "Paid prime" (19:30, $5 cover, with `paidPrime` on top).
 */
export async function createFreeEarlyAndPaidPrime(t: TestBackend, paidPrime: SceneItemOverrides = {}) {
  await createSceneItem(t, {
    title: "Free early",
    dayOfWeek: 3,
    startTimeLocal: "18:00",
    lastCheckInAt: WED_NOON - 3 * DAY,
  });
  await createSceneItem(t, {
    title: "Paid prime",
    dayOfWeek: 3,
    startTimeLocal: "19:30",
    costInfo: { type: "cover", coverAmount: 5 },
    ...paidPrime,
  });
}

export type Args = {
  nowMs: number;
  timeZone?: string;
  area?: { lat: number; lng: number; radiusMiles: number };
  filters?: Partial<PlanFilters>;
  type?: "all" | "open_mic" | "show";
  search?: string;
  limit?: number;
};

export function baseArgs(args: Args) {
  return {
    nowMs: args.nowMs,
    timeZone: args.timeZone ?? NY,
    ...(args.area ? { area: args.area } : {}),
    type: args.type ?? "all",
    search: args.search ?? "",
    filters: { ...NO_PLAN_FILTERS, ...args.filters },
  };
}

/**
 * The first `limit` nights (one page), whether more match (a page full to the
 * brim asks for one more to know), and, when nothing is on, tomorrow's first.
 */
export async function tonight(t: TestBackend, args: Args) {
  const first = await t.query(api.tonight.list, {
    ...baseArgs(args),
    paginationOpts: { numItems: args.limit ?? 50, cursor: null },
  });
  let isDone = first.isDone;
  if (!isDone) {
    const next = await t.query(api.tonight.list, {
      ...baseArgs(args),
      paginationOpts: { numItems: 1, cursor: first.continueCursor },
    });
    isDone = next.isDone && next.page.length === 0;
  }
  const tomorrow = first.page.length === 0 ? await t.query(api.tonight.tomorrow, baseArgs(args)) : [];
  return { nights: first.page, isDone, tomorrow };
}

/** Every night, page by page (`numItems` a page), with each page's size. */
export async function allPages(t: TestBackend, args: Args, numItems: number) {
  const nights = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const result: Awaited<ReturnType<typeof tonight>>["nights"] extends infer N
      ? { page: N; isDone: boolean; continueCursor: string }
      : never = await t.query(api.tonight.list, { ...baseArgs(args), paginationOpts: { numItems, cursor } });
    nights.push(...result.page);
    sizes.push(result.page.length);
    if (result.isDone) return { nights, sizes };
    cursor = result.continueCursor;
  }
  throw new Error("Tonight never finished paging");
}

export const titles = (nights: Array<{ item: { title: string } }>) => nights.map((n) => n.item.title);

// Wednesday 25 November 2026, 19:45 in New York.
export const WED_EVENING = Date.parse("2026-11-25T19:45:00-05:00");

/** Wednesday mics "Mic 0", "Mic 1", … hosted by `host` (its creator and approved claimant), one a start time (local, in order); returns their ids. */
export async function hostedWednesdayMics(
  t: TestBackend,
  host: TestUser,
  startTimes: string[],
): Promise<Id<"sceneItems">[]> {
  const ids: Id<"sceneItems">[] = [];
  for (const [i, startTimeLocal] of startTimes.entries()) {
    const micId = await createSceneItem(t, { title: `Mic ${i}`, dayOfWeek: 3, startTimeLocal, createdBy: host.userId });
    // Night tools belong to the approved claimant, not to whoever added the mic.
    await t.run((ctx) => ctx.db.insert("micClaims", { micId, claimantId: host.userId, status: "approved" }));
    ids.push(micId);
  }
  return ids;
}
