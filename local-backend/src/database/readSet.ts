/**
 * What a query read, for invalidating subscriptions the way Convex does: by
 * the index ranges, documents and tables read, not by whole tables.
 *
 * IndexedDatabase reports each index range a query streams (as a predicate on
 * a document: is it inside the range's bounds), each search (as a predicate
 * too: does the document match its filter values and hold one of its words,
 * Convex's search `QueryReads`), each document read by id, and whole tables
 * for reads it cannot bound. A commit's write intersects a read set when the
 * document before or after the write falls in a range or search read, has an
 * id read, or lies in a table read whole.
 *
 * A `.take(n)` / `.first()` that stopped at its n-th document records its
 * range up to that document, as Convex does; a page that stopped early is
 * recorded whole, from its bounds (Convex records the part actually read).
 * That only re-runs a query (or conflicts a mutation) more often, never less.
 */
import type { Doc } from "./convexTestTypes.js";

export type { Doc };

/** A document write as the commit hook reports it. */
export type Change = { table: string; id: string; before: Doc | null; after: Doc | null };

/** Per table, the writes above which every reader of the table re-runs without checking ranges. */
export const BULK_WRITE_THRESHOLD = 1000;

export class ReadSet {
  /** Tables read whole (reads of unknown shape). */
  readonly tables = new Set<string>();
  /** Index ranges and searches read, per table: does a document lie inside the range or match the search. */
  readonly ranges = new Map<string, ((doc: Doc) => boolean)[]>();
  /** Document ids read with `db.get`, per table. */
  readonly ids = new Map<string, Set<string>>();

  addTable(table: string): void {
    this.tables.add(table);
  }

  addRange(table: string, contains: (doc: Doc) => boolean): void {
    if (this.tables.has(table)) return;
    let list = this.ranges.get(table);
    if (!list) this.ranges.set(table, (list = []));
    list.push(contains);
  }

  addId(table: string, id: string): void {
    let set = this.ids.get(table);
    if (!set) this.ids.set(table, (set = new Set()));
    set.add(id);
  }

  /** Every table this read set touches in any way. */
  touchedTables(): Set<string> {
    const tables = new Set(this.tables);
    for (const table of this.ranges.keys()) tables.add(table);
    for (const table of this.ids.keys()) tables.add(table);
    return tables;
  }

  /** Whether one write changes what this read set saw. */
  intersects(change: Change): boolean {
    if (this.tables.has(change.table)) return true;
    if (this.ids.get(change.table)?.has(change.id)) return true;
    const ranges = this.ranges.get(change.table);
    if (!ranges) return false;
    for (const contains of ranges) {
      if (change.before !== null && contains(change.before)) return true;
      if (change.after !== null && contains(change.after)) return true;
    }
    return false;
  }
}
