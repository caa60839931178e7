/** The authorization matrix's cells for the scene, tonight, venues, new events, check-ins, favourites and the schedule. */
import { DAY, newMicDetails, NOW, page, VENUE, type Entry } from "./test.authzWorld";

export const sceneCells: Record<string, Entry> = {
  // The scene
  // Active items only; sceneList.test.ts shows no caller ever gets an inactive one.
  "scene:listPage": {
    args: () => ({ type: "all", day: null, search: "", ...page }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "scene:get": { args: (w) => ({ id: w.ownerMic }), anon: "read", other: "read", admin: "read", owner: "read" },
  "scene:viewerState": {
    args: () => ({ sinceMs: NOW - 2 * DAY }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "scene:remove": {
    changesBystander: {
      why: "deleting the mic deletes everyone's favourites, schedule entries, reports and venue visits there, unlinks their sets and recounts their venues",
      mic: (w) => w.ownerMic,
      derived: ["userStats"],
    },
    args: (w) => ({ id: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "change",
    owner: "change",
  },
  "sceneArea:listArea": {
    args: () => ({ lat: VENUE.latitude, lng: VENUE.longitude, radiusMiles: 10, ...page }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "tonight:list": {
    args: () => ({
      nowMs: NOW,
      timeZone: "America/New_York",
      type: "all",
      search: "",
      filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
      ...page,
    }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "tonight:tomorrow": {
    // The evening before the world's Wednesday mics.
    args: () => ({
      nowMs: NOW - 24 * 60 * 60 * 1000,
      timeZone: "America/New_York",
      type: "all",
      search: "",
      filters: { freeOnly: false, signup: "any", timeOfDay: "any", hideStale: false },
    }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "venues:search": { args: () => ({ query: "Test Room" }), anon: "read", other: "read", admin: "read", owner: "read" },
  "venues:eventsAt": {
    args: () => ({ venueName: "The Test Room" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "venues:similar": {
    args: () => ({ venueName: "The Test Room" }),
    anon: "read",
    other: "read",
    admin: "read",
    owner: "read",
  },
  "events:create": {
    args: () => ({
      venue: { venueName: "Fresh Venue", address: "1 Fresh St, Brooklyn, NY", latitude: 40.7, longitude: -73.95 },
      details: newMicDetails,
    }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "checkIns:checkIn": {
    args: (w) => ({ sceneItemId: w.ownerMic, ...VENUE }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },

  // Favourites and the schedule
  "favorites:add": {
    args: (w) => ({ sceneItemId: w.claimMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "favorites:remove": {
    args: (w) => ({ sceneItemId: w.ownerMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "favorites:list": { args: () => ({}), anon: "nothing", other: "own", admin: "own", owner: "read" },
  "schedule:add": {
    args: (w) => ({ sceneItemId: w.claimMic }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "change",
  },
  "schedule:remove": {
    args: (w) => ({ entryId: w.ownerEntry }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "schedule:removeByItem": {
    args: (w) => ({ sceneItemId: w.ownerMic }),
    anon: "nothing",
    other: "nothing",
    admin: "nothing",
    owner: "change",
  },
  "schedule:week": {
    args: () => ({ weekStartMs: NOW - 3 * DAY, weekEndMs: NOW + 4 * DAY, nowMs: NOW }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
  "schedule:calendar": {
    ownerAnswerShows: false,
    args: () => ({ fromMs: NOW - DAY }),
    anon: "nothing",
    other: "own",
    admin: "own",
    owner: "read",
  },
};
