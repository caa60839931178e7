import { authTables } from "@convex-dev/auth/server";
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { SHARE_FIELDS } from "./lib/season";
import { weekStreakStateValidator } from "./lib/weekStreaks";

/** Kinds of scene item: the wizards create open mics and shows; admins may also
 * mark a show as booked or bringer. */
export const sceneItemType = v.union(
  v.literal("open_mic"),
  v.literal("show"),
  v.literal("booked_show"),
  v.literal("bringer_show"),
);

export const recurrence = v.union(
  v.literal("weekly"),
  v.literal("bi-weekly"),
  v.literal("monthly"),
  v.literal("one-time"),
  v.literal("custom"),
);

export const notificationKind = v.union(
  v.literal("list_open"),
  v.literal("night_cancelled"),
  v.literal("night_confirmed"),
  v.literal("lottery"),
  v.literal("on_deck"),
  v.literal("up_next"),
  v.literal("claim_decided"),
  v.literal("admin_queue"),
  v.literal("set_feedback"),
);

export const signupMethod = v.union(v.literal("in_person"), v.literal("online"));

export const sceneItemStatus = v.union(v.literal("active"), v.literal("inactive"));

/** Cost of an open mic: free, a cover (mic fee), a drink minimum, or both. */
export const costInfo = v.object({
  type: v.union(v.literal("free"), v.literal("cover"), v.literal("minimum"), v.literal("combo")),
  coverAmount: v.optional(v.number()),
  minimumItems: v.optional(v.number()),
});

export const claimStatus = v.union(
  v.literal("pending"),
  v.literal("approved"),
  v.literal("denied"),
  /** An approved claim an admin took back: the claimant no longer manages the mic. */
  v.literal("revoked"),
);

export const reportKind = v.union(v.literal("no_longer_runs"), v.literal("wrong_time"), v.literal("other"));

export const reportStatus = v.union(v.literal("open"), v.literal("resolved"), v.literal("dismissed"));

/** A mic's short numbers (see `convex/lib/micNumbersLine.ts`): each figure only when it clears its thresholds. */
export const numbersLineValidator = v.object({
  nights: v.number(),
  held: v.number(),
  fillRate: v.optional(v.number()),
  fillMinutes: v.optional(v.number()),
  lotteryChance: v.optional(v.number()),
  lateMinutes: v.optional(v.number()),
  waitMinutes: v.optional(v.number()),
});

/** A mic's numbers over its latest closed nights, as stored (model/micNumbers). */
const nullableNumber = v.union(v.number(), v.null());
export const micNumberSummaryFields = {
  /** Closed nights looked at (held and cancelled). */
  nights: v.number(),
  held: v.number(),
  cancelled: v.number(),
  /** Of those nights, the ones the host confirmed. */
  hostConfirmed: v.number(),
  /** False below the thresholds: the page says "not enough nights yet". */
  enough: v.boolean(),
  typicalSignUps: nullableNumber,
  busiestSignUps: nullableNumber,
  typicalSpots: nullableNumber,
  /** Held first-come nights whose spots all went, and how fast they typically went. */
  fillRate: nullableNumber,
  typicalFillMinutes: nullableNumber,
  /** Percent chance of being drawn, over drawn lotteries. */
  lotteryChance: nullableNumber,
  lotteries: v.number(),
  typicalWaitMinutes: nullableNumber,
  typicalLateMinutes: nullableNumber,
};

/** The editable description of a mic or show (everything but counters and
 * verification), shared by the wizards, onboarding, admin and claimant edits. */
export const sceneItemFields = {
  title: v.string(),
  venueName: v.string(),
  city: v.string(),
  address: v.optional(v.string()),
  type: sceneItemType,
  googlePlaceId: v.optional(v.string()),
  latitude: v.optional(v.number()),
  longitude: v.optional(v.number()),
  /** 0 = Sunday .. 6 = Saturday; null when unknown. */
  dayOfWeek: v.optional(v.union(v.number(), v.null())),
  /** Wall-clock "HH:MM" in `timeZone`. */
  startTimeLocal: v.optional(v.string()),
  listTimeLocal: v.optional(v.string()),
  recurrence: recurrence,
  customRecurrenceDescription: v.optional(v.string()),
  /** For monthly items: the generated rule text, e.g. "Monthly on the 15th". */
  monthlyRule: v.optional(v.string()),
  signupMethod: v.optional(signupMethod),
  signupLink: v.optional(v.string()),
  showLink: v.optional(v.string()),
  hostName: v.optional(v.string()),
  notes: v.optional(v.string()),
  costInfo: v.optional(v.union(costInfo, v.null())),
  performanceMinutes: v.optional(v.number()),
  /** "YYYY-MM-DD" of a first occurrence chosen in the wizard: the cadence of
   * bi-weekly and every-N items (the creation date stands in without it). */
  anchorDate: v.optional(v.string()),
  /** IANA time zone of the venue; America/New_York when not known. */
  timeZone: v.string(),
};

/** Where a bit is in its life: just written, being worked on, tight, or put away. */
export const bitStatus = v.union(v.literal("new"), v.literal("working"), v.literal("tight"), v.literal("retired"));

/** How a bit went in one set. */
export const bitRating = v.union(v.literal("landed"), v.literal("okay"), v.literal("flat"));

export default defineSchema({
  ...authTables,

  profiles: defineTable({
    userId: v.id("users"),
    displayName: v.string(),
    photoStorageId: v.optional(v.id("_storage")),
    onboardingCompleted: v.boolean(),
    needsOnboarding: v.boolean(),
    weeklyGoalMinutes: v.number(),
    defaultCity: v.optional(v.string()),
    /** IANA time zone the comedian's days are counted in. */
    timeZone: v.optional(v.string()),
    isAdmin: v.boolean(),
    /** When the comedian joined, where a history brought along predates the account (the demo seed). */
    memberSince: v.optional(v.number()),
  })
    .index("by_userId", ["userId"])
    // Who hears about a new claim or report.
    .index("by_isAdmin", ["isAdmin"])
    // A new photo must not be a file some profile already uses (setPhoto).
    .index("by_photoStorageId", ["photoStorageId"]),

  /** Per-comedian totals, kept in the same transaction as each set change. */
  userStats: defineTable({
    userId: v.id("users"),
    totalMinutes: v.number(),
    totalSets: v.number(),
    uniqueVenues: v.number(),
    currentStreak: v.number(),
    longestStreak: v.number(),
    lastSetDate: v.optional(v.string()),
    venuesAdded: v.number(),
    /** The week streak walked up to the week in progress at the last change (model/weekStreaks). */
    weekStreak: v.optional(weekStreakStateValidator),
    longestWeekStreak: v.optional(v.number()),
  }).index("by_userId", ["userId"]),

  /** One row per comedian per goal week (Sunday's date) with a set: minutes and that week's goal. */
  performanceWeeks: defineTable({
    userId: v.id("users"),
    weekStart: v.string(),
    minutes: v.number(),
    sets: v.number(),
    goal: v.number(),
  }).index("by_user_and_week", ["userId", "weekStart"]),

  // A season in review: one rollup row per comedian-month, and the public links to a season.
  /** A comedian's month: sets, minutes, sets per day (`days[i]` is day i + 1) and per mic (capped; the rest in `otherSets`). */
  seasonMonths: defineTable({
    userId: v.id("users"),
    month: v.string(),
    sets: v.number(),
    minutes: v.number(),
    days: v.array(v.number()),
    mics: v.array(
      v.object({ sceneItemId: v.optional(v.id("sceneItems")), venueName: v.optional(v.string()), sets: v.number() }),
    ),
    otherSets: v.number(),
  }).index("by_user_and_month", ["userId", "month"]),

  /** A public link to a comedian's season: an unguessable token, the months it covers and the figures it shows. */
  seasonShares: defineTable({
    userId: v.id("users"),
    token: v.string(),
    from: v.string(),
    to: v.string(),
    fields: v.array(v.union(...SHARE_FIELDS.map((f) => v.literal(f)))),
  })
    .index("by_token", ["token"])
    .index("by_userId", ["userId"]),

  /** A set logged from a device's offline outbox, by the key the device gave it: a resend finds it. */
  setClientKeys: defineTable({
    userId: v.id("users"),
    clientKey: v.string(),
    performanceId: v.id("performances"),
  }).index("by_user_and_clientKey", ["userId", "clientKey"]),

  /** One row per comedian per local day with at least one set (streaks). */
  performanceDays: defineTable({
    userId: v.id("users"),
    date: v.string(),
    sets: v.number(),
  }).index("by_user_and_date", ["userId", "date"]),

  /** One row per comedian per mic they have logged sets at (unique venues). */
  venueVisits: defineTable({
    userId: v.id("users"),
    sceneItemId: v.id("sceneItems"),
    sets: v.number(),
  })
    .index("by_user_and_item", ["userId", "sceneItemId"])
    .index("by_item", ["sceneItemId"]),

  performances: defineTable({
    userId: v.id("users"),
    minutes: v.number(),
    /** Epoch ms of the set. */
    performedAt: v.number(),
    /** "YYYY-MM-DD" in the comedian's time zone. */
    performanceDate: v.string(),
    sceneItemId: v.optional(v.id("sceneItems")),
    /** Venue name kept for sets not linked to a scene item (one-time shows). */
    venueName: v.optional(v.string()),
    notes: v.optional(v.string()),
    tags: v.array(v.string()),
  })
    .index("by_user_and_performedAt", ["userId", "performedAt"])
    .index("by_user_and_date", ["userId", "performanceDate"])
    .index("by_sceneItem", ["sceneItemId"]),

  sceneItems: defineTable({
    ...sceneItemFields,
    status: sceneItemStatus,
    createdBy: v.optional(v.id("users")),
    checkInCount: v.number(),
    verifiedCheckIns30d: v.number(),
    verificationExpiresAt: v.optional(v.number()),
    lastVerifiedAt: v.optional(v.number()),
    /** Epoch ms of the latest check-in ("Confirmed 3 days ago"). */
    lastCheckInAt: v.optional(v.number()),
    /** Local dates ("YYYY-MM-DD") the claimant marked cancelled. */
    cancelledDates: v.optional(v.array(v.string())),
    /** Local dates ("YYYY-MM-DD") the host (approved claimant) or an admin confirmed the night runs. */
    confirmedDates: v.optional(v.array(v.string())),
    /** Epoch ms of the latest host confirmation or admin edit; freshness takes the later of this and `lastCheckInAt`. */
    lastConfirmedAt: v.optional(v.number()),
    /** Geohash of the venue (precision 6) for area reads; absent without coordinates. */
    geohash: v.optional(v.string()),
    /** The geohash's first 4 characters (a cell about 39 by 20 km): Tonight around a point reads these cells in start order. */
    areaCell: v.optional(v.string()),
    /** title + venue + city, lower-cased, for the search index. */
    searchText: v.string(),
    /** The mic's short numbers for Tonight and the scene cards (model/micNumbers), once enough nights show them. */
    numbersLine: v.optional(numbersLineValidator),
  })
    .index("by_status_and_day", ["status", "dayOfWeek", "startTimeLocal"])
    // The scene's Open Mic chip: open mics only, still in day and time order.
    .index("by_status_and_type_and_day", ["status", "type", "dayOfWeek", "startTimeLocal"])
    .index("by_status_and_geohash", ["status", "geohash"])
    // Tonight without a location: one weekday in one time zone, in local start order.
    .index("by_status_and_day_and_timeZone", ["status", "dayOfWeek", "timeZone", "startTimeLocal"])
    // Tonight around a point: one weekday's mics in one covering cell and time zone, in local start order.
    .index("by_status_and_day_and_areaCell", ["status", "dayOfWeek", "areaCell", "timeZone", "startTimeLocal"])
    .index("by_googlePlaceId", ["googlePlaceId"])
    .index("by_venueName", ["venueName"])
    .index("by_createdBy", ["createdBy"])
    .index("by_verificationExpiresAt", ["verificationExpiresAt"])
    .searchIndex("search_text", { searchField: "searchText", filterFields: ["status", "type", "dayOfWeek"] })
    .searchIndex("search_venue", { searchField: "venueName", filterFields: ["status"] }),

  checkIns: defineTable({
    userId: v.id("users"),
    sceneItemId: v.id("sceneItems"),
    checkedInAt: v.number(),
    /** "YYYY-MM-DD" in the item's time zone: one check-in per comedian per item per day. */
    localDate: v.string(),
  })
    .index("by_user_item_and_date", ["userId", "sceneItemId", "localDate"])
    .index("by_item_and_time", ["sceneItemId", "checkedInAt"])
    .index("by_user_and_time", ["userId", "checkedInAt"]),

  /**
   * Check-ins the mic row has not counted yet, one row each: a check-in only
   * inserts, and a fold on the next second takes them into the mic's count
   * and Verified (model/micTriggers), so a crowd at one mic never writes one row.
   */
  micCheckInQueue: defineTable({ micId: v.id("sceneItems"), checkInId: v.id("checkIns") }).index("by_mic", ["micId"]),

  favorites: defineTable({
    userId: v.id("users"),
    sceneItemId: v.id("sceneItems"),
  })
    .index("by_user_and_item", ["userId", "sceneItemId"])
    .index("by_item", ["sceneItemId"]),

  scheduleEntries: defineTable({
    userId: v.id("users"),
    sceneItemId: v.id("sceneItems"),
    addedAt: v.number(),
    /** Set by the cleanup once the performance it was added for is over. */
    completedAt: v.optional(v.number()),
    /**
     * When the cleanup next has to look at the entry: the end of its next
     * occurrence, or the time it became removable.
     * Optional until `schedule:backfillDueAt` has run on older entries.
     */
    dueAt: v.optional(v.number()),
  })
    .index("by_user_and_item", ["userId", "sceneItemId"])
    .index("by_item", ["sceneItemId"])
    .index("by_dueAt", ["dueAt"]),

  userBadges: defineTable({
    userId: v.id("users"),
    badgeCode: v.string(),
    awardedAt: v.number(),
    metadata: v.optional(v.any()),
  }).index("by_user_and_code", ["userId", "badgeCode"]),

  micClaims: defineTable({
    micId: v.id("sceneItems"),
    claimantId: v.id("users"),
    message: v.optional(v.string()),
    status: claimStatus,
    reviewedAt: v.optional(v.number()),
    reviewedBy: v.optional(v.id("users")),
    /** When and by which admin an approved claim was revoked (status "revoked"). */
    revokedAt: v.optional(v.number()),
    revokedBy: v.optional(v.id("users")),
    /** The admin's optional reason for the decision, shown to the claimant. */
    reviewReason: v.optional(v.string()),
    /** The claim's short reference, 'Claim #{number}': 1, 2, 3… in the order
     * claims were filed (claims:backfillNumbers numbers those filed before it existed). */
    number: v.optional(v.number()),
  })
    .index("by_mic_and_claimant", ["micId", "claimantId"])
    .index("by_mic_and_status", ["micId", "status"])
    .index("by_number", ["number"])
    .index("by_claimant", ["claimantId"])
    .index("by_status", ["status"]),

  problemReports: defineTable({
    micId: v.id("sceneItems"),
    reporterId: v.id("users"),
    kind: reportKind,
    note: v.optional(v.string()),
    status: reportStatus,
    resolvedAt: v.optional(v.number()),
    resolvedBy: v.optional(v.id("users")),
  })
    .index("by_status", ["status"])
    .index("by_mic", ["micId"])
    .index("by_reporter", ["reporterId"]),

  /**
   * A mic night's live list, one per mic per local night ("YYYY-MM-DD" in the
   * mic's time zone). `version` moves with every change, so a host's reorder
   * made against an older copy is refused instead of undoing someone else's.
   */
  nightLists: defineTable({
    micId: v.id("sceneItems"),
    date: v.string(),
    status: v.union(v.literal("open"), v.literal("closed")),
    closedReason: v.optional(v.union(v.literal("ended"), v.literal("cancelled"))),
    openedBy: v.id("users"),
    /** Spots on the list, and places on the waitlist behind it. */
    spots: v.number(),
    waitlistSpots: v.number(),
    setMinutes: v.number(),
    /** The light: minutes before the end of a set. */
    lightMinutes: v.number(),
    mode: v.union(v.literal("first_come"), v.literal("lottery")),
    /** Lottery only: epoch ms of the draw, and whether sign-ups after it go to the waitlist. */
    drawAt: v.optional(v.number()),
    bucket: v.boolean(),
    drawnAt: v.optional(v.number()),
    /** Epoch ms online sign-up opens (walk-ins can always be added by the host). */
    signupOpensAt: v.number(),
    version: v.number(),
  }).index("by_mic_and_date", ["micId", "date"]),

  /**
   * One row per night list: what the mic's numbers read (model/micNumbers),
   * kept by a trigger on the list. Counts only, no comedian named.
   */
  micNights: defineTable({
    micId: v.id("sceneItems"),
    listId: v.id("nightLists"),
    date: v.string(),
    closed: v.boolean(),
    cancelled: v.boolean(),
    lottery: v.boolean(),
    spots: v.number(),
    signUps: v.number(),
    comedians: v.number(),
    /** Minutes from sign-up opening to the sign-up that filled the last spot (first come, filled nights). */
    fillMinutes: v.optional(v.number()),
    /** Lotteries once drawn: who was in the draw and how many got a spot from it. */
    lotteryEntrants: v.optional(v.number()),
    lotteryDrawn: v.optional(v.number()),
    /** Minutes from the listed start to the first set (negative when early). */
    firstSetLateMinutes: v.optional(v.number()),
    /** Minutes from the list time to each set that went up, summed, and how many sets. */
    waitMinutes: v.number(),
    sets: v.number(),
    /** The mic's host confirmed this night (its date among the mic's confirmed dates). */
    hostConfirmed: v.optional(v.boolean()),
  })
    .index("by_list", ["listId"])
    .index("by_mic_and_closed_and_date", ["micId", "closed", "date"]),

  /**
   * One row per mic with list history: its numbers over the latest closed
   * nights, rewritten by the same trigger whenever one of those nights
   * changes, so the event page reads one document (model/micNumbers).
   */
  micNumberSummaries: defineTable({
    micId: v.id("sceneItems"),
    ...micNumberSummaryFields,
    /** The drawn lotteries counted, for the viewer's own record. */
    drawnListIds: v.array(v.id("nightLists")),
  }).index("by_mic", ["micId"]),

  /**
   * A comedian (or a walk-in by name) on a night's list, in one section in rank
   * order. An online sign-up only inserts its own row as "pending": its place
   * follows from arrival order (`_creationTime`) on read, and the next host
   * change writes it (model/nightListPlacement), so sign-ups never conflict.
   */
  listSpots: defineTable({
    listId: v.id("nightLists"),
    micId: v.id("sceneItems"),
    /** Absent for a walk-in added by name. */
    userId: v.optional(v.id("users")),
    name: v.string(),
    /** "pool": in the lottery before the draw; "pending": not placed yet; "removed": taken off by the host. */
    section: v.union(
      v.literal("pool"),
      v.literal("list"),
      v.literal("waitlist"),
      v.literal("pending"),
      v.literal("removed"),
    ),
    rank: v.number(),
    state: v.union(v.literal("waiting"), v.literal("up"), v.literal("done"), v.literal("no_show")),
    /** Bumped or left on the waitlist at this mic's last list: placed first. */
    priority: v.boolean(),
    /** The host moved this spot to the waitlist. */
    bumped: v.boolean(),
    /** 1-based place in the lottery's recorded draw order. */
    drawIndex: v.optional(v.number()),
    startedAt: v.optional(v.number()),
    endedAt: v.optional(v.number()),
    /** The set logged for the comedian when the host marked it done. */
    performanceId: v.optional(v.id("performances")),
    loggedMinutes: v.optional(v.number()),
  })
    .index("by_list_and_user", ["listId", "userId"])
    .index("by_list_and_section", ["listId", "section"])
    .index("by_user", ["userId"])
    .index("by_mic", ["micId"]),

  // Material: a comedian's bits, set lists and how each bit went. Private to the comedian.

  /**
   * A bit. `performed`, `landed`, `okay`, `flat`, `lastPerformedAt` and
   * `recent` follow its ratings (model/bitTriggers), never written by hand.
   */
  bits: defineTable({
    userId: v.id("users"),
    title: v.string(),
    notes: v.optional(v.string()),
    tags: v.array(v.string()),
    /** Estimated length in seconds. */
    seconds: v.optional(v.number()),
    status: bitStatus,
    archived: v.boolean(),
    /** Lower-cased title: the library's order. */
    titleKey: v.string(),
    /** Title, tags and notes, lower-cased, for the search index. */
    searchText: v.string(),
    performed: v.number(),
    landed: v.number(),
    okay: v.number(),
    flat: v.number(),
    lastPerformedAt: v.optional(v.number()),
    /** The latest ratings, newest first (the trend). */
    recent: v.array(bitRating),
  })
    .index("by_user_and_archived_and_title", ["userId", "archived", "titleKey"])
    .index("by_user_and_archived_and_status_and_title", ["userId", "archived", "status", "titleKey"])
    .searchIndex("search_text", { searchField: "searchText", filterFields: ["userId", "archived", "status"] }),

  /** One row per tag of a bit (kept by model/bitTriggers), so the library filters by tag through an index. */
  bitTags: defineTable({
    userId: v.id("users"),
    bitId: v.id("bits"),
    /** Lower-cased tag. */
    tag: v.string(),
    archived: v.boolean(),
    status: bitStatus,
    titleKey: v.string(),
  })
    .index("by_bit", ["bitId"])
    .index("by_user_and_tag_and_archived_and_title", ["userId", "tag", "archived", "titleKey"])
    .index("by_user_and_tag_and_archived_and_status_and_title", ["userId", "tag", "archived", "status", "titleKey"]),

  /** A set list: bits in running order, optionally for one mic night (a scheduled night or a live-list spot). */
  setLists: defineTable({
    userId: v.id("users"),
    title: v.string(),
    bitIds: v.array(v.id("bits")),
    /** The night it is for: the mic and its local date ("YYYY-MM-DD"). */
    nightMicId: v.optional(v.id("sceneItems")),
    nightDate: v.optional(v.string()),
  })
    // Newest first on the set lists page (by _creationTime), unlike the night index.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_user", ["userId"])
    .index("by_user_and_night", ["userId", "nightMicId", "nightDate"]),

  /**
   * "How did it go?" for one logged set: pending when a set was logged on a
   * night with a set list attached, done once rated, skipped when waved off.
   * `rated`, `landed`, `okay`, `flat` follow the set's ratings (model/bitTriggers).
   */
  setReviews: defineTable({
    userId: v.id("users"),
    performanceId: v.id("performances"),
    setListId: v.optional(v.id("setLists")),
    sceneItemId: v.optional(v.id("sceneItems")),
    performedAt: v.number(),
    status: v.union(v.literal("pending"), v.literal("done"), v.literal("skipped")),
    /** The set list's bits when the set was logged, in running order. */
    bitIds: v.array(v.id("bits")),
    rated: v.number(),
    landed: v.number(),
    okay: v.number(),
    flat: v.number(),
  })
    .index("by_user_and_status_and_time", ["userId", "status", "performedAt"])
    .index("by_performance", ["performanceId"]),

  /** How one bit went in one set. Copies the set's mic, time and month so the numbers below follow it. */
  bitRatings: defineTable({
    userId: v.id("users"),
    bitId: v.id("bits"),
    performanceId: v.id("performances"),
    sceneItemId: v.optional(v.id("sceneItems")),
    performedAt: v.number(),
    /** "YYYY-MM" of the set's local date. */
    month: v.string(),
    rating: bitRating,
    note: v.optional(v.string()),
  })
    .index("by_performance_and_bit", ["performanceId", "bitId"])
    .index("by_bit_and_time", ["bitId", "performedAt"])
    .index("by_user_and_time", ["userId", "performedAt"]),

  /** A bit's ratings at one mic (best and worst rooms; bits not yet done at a mic). Kept by model/bitTriggers. */
  bitRooms: defineTable({
    userId: v.id("users"),
    bitId: v.id("bits"),
    sceneItemId: v.id("sceneItems"),
    performed: v.number(),
    landed: v.number(),
    okay: v.number(),
    flat: v.number(),
  })
    .index("by_bit_and_room", ["bitId", "sceneItemId"])
    .index("by_user_and_room", ["userId", "sceneItemId"]),

  /** A bit's ratings in one month ("which bits landed most" over any period). Kept by model/bitTriggers. */
  bitMonths: defineTable({
    userId: v.id("users"),
    month: v.string(),
    bitId: v.id("bits"),
    performed: v.number(),
    landed: v.number(),
    okay: v.number(),
    flat: v.number(),
  })
    .index("by_user_and_month", ["userId", "month", "bitId"])
    .index("by_bit_and_month", ["bitId", "month"]),

  // Notifications: each account's inbox, its choices, its devices, and the list-opening alarms.
  /** One notice in a comedian's inbox; `eventKey` makes each event reach an account once. */
  notifications: defineTable({
    userId: v.id("users"),
    kind: notificationKind,
    eventKey: v.string(),
    title: v.string(),
    body: v.string(),
    /** The app page a tap opens (a path on this site). */
    url: v.string(),
    readAt: v.optional(v.number()),
    /** What happened on the comedian's devices: sent, or why not. */
    push: v.union(
      v.literal("queued"),
      v.literal("sent"),
      v.literal("no_devices"),
      v.literal("quiet_hours"),
      v.literal("rate_limited"),
      v.literal("not_configured"),
    ),
  })
    // Newest first for the inbox and the hourly push count; the event key sorts otherwise.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_user", ["userId"])
    .index("by_user_and_eventKey", ["userId", "eventKey"])
    .index("by_user_and_readAt", ["userId", "readAt"]),

  /** A comedian's notification choices; without a row every topic is on, no quiet hours. */
  notificationPrefs: defineTable({
    userId: v.id("users"),
    listOpens: v.boolean(),
    nights: v.boolean(),
    lottery: v.boolean(),
    onDeck: v.boolean(),
    claims: v.boolean(),
    sets: v.boolean(),
    /** Minutes before an in-person list time to be told it is about to open. */
    leadMinutes: v.number(),
    /** "HH:MM" wall-clock quiet hours in `timeZone` (no push then; the inbox still fills). */
    quietStart: v.optional(v.string()),
    quietEnd: v.optional(v.string()),
    timeZone: v.string(),
  }).index("by_userId", ["userId"]),

  /** A mic the comedian follows but does not want notices about. */
  notificationMutes: defineTable({
    userId: v.id("users"),
    micId: v.id("sceneItems"),
  }).index("by_user_and_mic", ["userId", "micId"]),

  /** One device's Web Push subscription; removed when the push service answers 404 or 410. */
  pushSubscriptions: defineTable({
    userId: v.id("users"),
    endpoint: v.string(),
    p256dh: v.string(),
    auth: v.string(),
  })
    .index("by_user", ["userId"])
    .index("by_endpoint", ["endpoint"]),

  /**
   * Who hears a mic's list opening, one row per comedian and mic they favourited or
   * scheduled (kept by model/micFollowers from those rows and the comedian's choices),
   * so an alarm reads only the followers due at its lead time.
   */
  micFollowers: defineTable({
    micId: v.id("sceneItems"),
    userId: v.id("users"),
    /** The comedian's lead time in minutes, or null when they switched list openings off. */
    leadMinutes: v.union(v.number(), v.null()),
  })
    .index("by_mic_and_lead", ["micId", "leadMinutes"])
    .index("by_user_and_mic", ["userId", "micId"]),

  /** A mic's next list opening, one row per mic: the minute cron fires the due ones in batches. */
  listAlarms: defineTable({
    micId: v.id("sceneItems"),
    /** Epoch ms of the list time this alarm is for. */
    listAt: v.number(),
    /** Which of the lead times fires next (an index into the lead list, longest first). */
    leadIndex: v.number(),
    fireAt: v.number(),
  })
    .index("by_fireAt", ["fireAt"])
    .index("by_micId", ["micId"]),

  /** Distinct cities of active scene items with a count, for the landing stats. */
  cities: defineTable({
    name: v.string(),
    items: v.number(),
  }).index("by_name", ["name"]),
});
