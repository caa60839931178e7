/**
 * Joins the shared list view (nightLists:current, the same for everyone) with
 * the caller's side of it (nightLists:viewer): which spot is theirs, whether
 * they host it, and their place when the shared view does not show them.
 * Used by the app's live list and by the tests that read it as someone.
 */

type SpotLike = { _id: string };
type ListLike<S extends SpotLike> = {
  _id: string;
  date: string;
  list: S[];
  waitlist: S[];
  pool: S[];
  upNow: S | null;
  onDeck: S | null;
};
type ViewerLike = {
  listId: string | null;
  canHost: boolean;
  hasPriority: boolean;
  hasPriorityNext: boolean;
  mine: { spotId: string; removed: boolean } | null;
};

type Mine<S> = S & { isMine: boolean };
export type WithMine<L extends ListLike<SpotLike>> = Omit<L, "list" | "waitlist" | "pool" | "upNow" | "onDeck"> & {
  list: Array<Mine<L["list"][number]>>;
  waitlist: Array<Mine<L["list"][number]>>;
  pool: Array<Mine<L["list"][number]>>;
  upNow: Mine<L["list"][number]> | null;
  onDeck: Mine<L["list"][number]> | null;
};

export type LiveList<L extends ListLike<SpotLike>> = {
  /** Tonight's (or last night's) list, with the viewer's own spot marked. */
  list: WithMine<L> | null;
  canHost: boolean;
  /** Bumped or waitlisted at the mic's last list: placed first at this one. */
  hasPriority: boolean;
  /** The viewer signed up but is not on the list shown: it was full, or the host took them off. */
  notShown: "full" | "removed" | null;
};

/** The live list as the viewer sees it; `sinceDate` is yesterday in the mic's zone (an older list is over). */
export function joinViewer<L extends ListLike<SpotLike>>(
  current: { list: L | null },
  viewer: ViewerLike,
  sinceDate: string,
): LiveList<L> {
  const shown = current.list !== null && current.list.date >= sinceDate ? current.list : null;
  // Both answers are about the same list only when they name it; else the viewer's is not in yet.
  const same = shown !== null && viewer.listId === shown._id;
  const mineId = same ? (viewer.mine?.spotId ?? null) : null;
  const mark = <S extends SpotLike>(s: S) => ({ ...s, isMine: s._id === mineId });
  const list: WithMine<L> | null =
    shown === null
      ? null
      : {
          ...shown,
          list: shown.list.map(mark),
          waitlist: shown.waitlist.map(mark),
          pool: shown.pool.map(mark),
          upNow: shown.upNow === null ? null : mark(shown.upNow),
          onDeck: shown.onDeck === null ? null : mark(shown.onDeck),
        };
  const listed = list !== null && [...list.list, ...list.waitlist, ...list.pool].some((s) => s.isMine);
  const notShown =
    !same || viewer.mine === null || listed ? null : viewer.mine.removed ? ("removed" as const) : ("full" as const);
  return {
    list,
    canHost: viewer.canHost,
    hasPriority: shown === null ? viewer.hasPriorityNext : viewer.hasPriority,
    notShown,
  };
}
