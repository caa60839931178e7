import { defineApp } from "convex/server";
import rateLimiter from "@convex-dev/rate-limiter/convex.config";
import shardedCounter from "@convex-dev/sharded-counter/convex.config";

/**
 * The Convex components this app installs. Each runs in its own namespace with
 * its own tables (on Convex and in the local backend alike); the app reaches
 * them through `components` in `./_generated/api`.
 * - `rateLimiter`: every rate limit of the app, defined in `rateLimits.ts`.
 * - `shardedCounter`: the community figures every logged set bumps
 *   (`model/stats.ts`), sharded so concurrent sets do not conflict on one row.
 */
const app = defineApp();
app.use(rateLimiter);
app.use(shardedCounter);

export default app;
