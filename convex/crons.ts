import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// Verification lasts 30 days from the latest verifying check-in; clear it once it lapses.
crons.daily("expire verification", { hourUTC: 8, minuteUTC: 17 }, internal.checkIns.expireVerification, {});

// Schedule entries whose performance is over are cleaned up every 5 minutes.
crons.interval("clean up completed schedule entries", { minutes: 5 }, internal.schedule.cleanupCompleted, {});

// Uploads no profile uses are deleted an hour after upload (storage.ts).
crons.hourly("delete unattached uploads", { minuteUTC: 41 }, internal.storage.deleteUnattachedUploads, {});

// Google sign-ins started and never finished leave an authVerifiers row each: deleted 20 minutes on (authVerifiers.ts).
crons.interval("delete stale sign-in verifiers", { minutes: 10 }, internal.authVerifiers.deleteStaleVerifiers, {});

// Failed sign-ins leave an authRateLimits row per identifier: deleted once an hour has refilled it (authRateLimits.ts).
crons.interval("delete stale auth rate limits", { minutes: 30 }, internal.authRateLimits.deleteStaleAuthRateLimits, {});

// In-person lists about to open: each mic's alarm fires its followers' notices in batches (notifications.ts).
crons.interval("fire list-opening alarms", { minutes: 1 }, internal.notifications.fireAlarms, {});

export default crons;
