/**
 * Site figures: the `cities` rows (one per name) count the active mics of
 * their city, and the community totals (the `shardedCounter` component, read
 * through model/stats) of venues, cities, comedians and minutes equal
 * recounts of the active mics, profiles and sets. Profiles point at an
 * existing user.
 */
import { type CommunityTotals, COMMUNITY_TOTALS, readCommunityTotals } from "../stats";
import { checkLinks, checkRows, type Finisher, type PageCheck } from "./page";

const profiles: PageCheck = async (p) => {
  const page = await checkRows(p, "profiles", (row) => checkLinks(p, "profiles", { _id: row._id, userId: row.userId }));
  if (page.page.length > 0) p.counters.add("profiles", "", page.page.length);
  return page;
};

const cities: PageCheck = (p) =>
  checkRows(p, "cities", async (c) => {
    const rows = await p.ctx.db
      .query("cities")
      .withIndex("by_name", (q) => q.eq("name", c.name))
      .take(2);
    if (rows[0]._id !== c._id) p.problems.push(`cities: two rows for ${JSON.stringify(c.name)}`);
    else p.tally.cities.push({ name: c.name, items: c.items });
  });

const communityTotals: PageCheck = async ({ ctx, tally }) => {
  // Not a table: the counter's few shard rows per total, read in one page.
  tally.site = [await readCommunityTotals(ctx)];
  return { continueCursor: "", isDone: true, page: tally.site };
};

export const communityPages = { profiles, cities, communityTotals };

/** The problem lines for community totals that differ from a recount. */
function checkCommunityTotals(problems: string[], stored: CommunityTotals, expected: CommunityTotals): void {
  for (const key of COMMUNITY_TOTALS) {
    if (stored[key] !== expected[key])
      problems.push(`community totals: ${key} ${stored[key]} but a recount gives ${expected[key]}`);
  }
}

/** Cities and community totals against the active mics (counted by ./mics), profiles and sets (./stats). */
export const finishCommunity: Finisher = (totals, problems) => {
  const activePerCity = totals.counter("activeInCity");
  const cityByName = new Map(totals.cities.map((c) => [c.name, c]));
  for (const [name, n] of activePerCity) {
    const items = cityByName.get(name)?.items;
    if (items !== n)
      problems.push(`cities ${JSON.stringify(name)}: items ${items ?? "no row"} but ${n} active item(s)`);
  }
  for (const c of totals.cities) {
    if (!activePerCity.has(c.name) && c.items !== 0)
      problems.push(`cities ${JSON.stringify(c.name)}: items ${c.items} but no active items`);
  }
  const site = totals.site[0] ?? { venues: 0, cities: 0, comedians: 0, minutesLogged: 0 };
  checkCommunityTotals(problems, site, {
    venues: [...activePerCity.values()].reduce((a, b) => a + b, 0),
    cities: activePerCity.size,
    comedians: totals.counter("profiles").get("") ?? 0,
    minutesLogged: totals.counter("siteMinutes").get("") ?? 0,
  });
};
