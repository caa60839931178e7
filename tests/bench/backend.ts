/**
 * `npm run bench:backend [-- --subscribers 200 --docs 1000 --updates 30 --query summary|all]`
 * (backend/subscribers.ts): starts the local backend on free ports with a
 * temporary data directory over tests/bench/fixture/convex, subscribes N
 * `ConvexClient`s to one query over the items table, and measures, for each of
 * a series of mutations, the time from the writer's mutation response to the
 * moment the last subscriber sees the new result. Then single-writer mutations
 * per second and the backend's resident memory. The subscribers run in this
 * process, so the end-to-end figures include their parsing; the backend's own
 * share (from its trace) is printed too. Prints figures; asserts nothing.
 *
 * `npm run bench:backend -- --hot [--burst 50 --bursts 3]` (backend/hotDocument.ts):
 * conflicts, retries and failures per burst of concurrent writes to one
 * document under optimistic concurrency (the default run prints it too).
 *
 * `npm run bench:backend -- --fanout [--mics 1000 --scene 50 --checkins 20]`
 * (backend/fanout.ts): read-set invalidation at scene size.
 *
 * `npm run bench:backend -- --signups [--loops 8 --seconds 15]`
 * (backend/signups.ts): a public query's latency while sign-ups hash passwords.
 *
 * `npm run bench:backend -- --index-read [--stock]` (backend/indexRead.ts)
 * instead times, in process, an index range read of 50 documents from a
 * 100,000- and a 1,000,000-document table with the backend's IndexedDatabase
 * (and with stock convex-test DatabaseFake, the "before", with --stock), plus
 * single-document commits, and full-text searches (first use of the search
 * index, `.take(24)`, a `.collect()` of up to 1,024 results and two pages of
 * 24, for a one-term, a two-term, a prefix and a three-term query; with
 * --stock also convex-test's scan).
 *
 * `npm run bench:backend -- --storage [--mics 150000 --comedians 1000 --max-sets 10000 | --snapshot FILE]
 *     [--data-dir DIR] [--cli local-backend/src/backend.mjs]` (backend/storage.ts,
 * issue 18 item 3): the scale generator's national scene
 * (tests/bench/scaleData.ts; 150,000 mics make ~810,000 documents) imported
 * with the CLI into DIR (kept and reused when it already holds data), then the
 * backend over the app's convex/ is started twice (the first start migrates, or
 * compacts what an older CLI's import logged; the second is a plain start): start time (spawn to
 * "Local backend ready"); from the spawn, the first answers of the scene area
 * query (NYC, 10 mi) and the national scene list, and the moment every
 * document is parsed (a table is parsed when first used, the rest in the
 * background); RSS and RSS per document once all are; then a small change
 * (comedian 0 signs in) and a compaction (`/_local/compact`): its time and
 * bytes written. `--cli` runs another checkout's backend (the "before"; a
 * `cli.ts` runs through tsx).
 *
 * `npm run bench:backend -- --abuse [--sockets 2 --subs 1000 --writes 10]` (backend/abuse.ts):
 * sockets of subscriptions differing in one ignored argument, then writes and an unrelated query.
 *
 * Every mode starts and stops its backends with one helper (backend/common.ts).
 */
import { abuse } from "./backend/abuse";
import { fanout } from "./backend/fanout";
import { hotDocument } from "./backend/hotDocument";
import { indexRead } from "./backend/indexRead";
import { signups } from "./backend/signups";
import { storage } from "./backend/storage";
import { subscribers } from "./backend/subscribers";

(process.argv.includes("--abuse")
  ? abuse()
  : process.argv.includes("--index-read")
    ? indexRead()
    : process.argv.includes("--fanout")
      ? fanout()
      : process.argv.includes("--signups")
        ? signups()
        : process.argv.includes("--storage")
          ? storage()
          : process.argv.includes("--hot")
            ? hotDocument()
            : subscribers()
).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
