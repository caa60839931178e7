/** The authorization matrix's cells for the scene, tonight, venues, new events, check-ins, favourites and the schedule. */
import {
  ADMIN_CHANGES,
  DAY,
  DELETING_THE_OWNERS_MIC,
  type Entry,
  newMicDetails,
  NOW,
  OWNER_CHANGES,
  page,
  PUBLIC_READ,
  SIGNED_IN_CHANGES,
  SIGNED_IN_READS,
  VENUE,
} from "./test.authzWorld";

export const sceneCells: Record<string, Entry> = {
  // The scene
  // Active items only; sceneList.test.ts shows no caller ever gets an inactive one.
  "scene:listPage": { args: () => ({ type: "all", day: null, search: "", ...page }), ...PUBLIC_READ },
  "scene:get": { args: (w) => ({ id: w.ownerMic }), ...PUBLIC_READ },
  "scene:viewerState": { args: () => ({ sinceMs: NOW - 2 * DAY }), ...SIGNED_IN_READS },
  // The bystander's rows point at the mic, so its creator may not delete it (authz.hosts.test.ts has the rest).
  "scene:remove": {
    changesBystander: DELETING_THE_OWNERS_MIC,
    args: (w) => ({ id: w.ownerMic }),
    ...ADMIN_CHANGES,
  },
  "sceneArea:listArea": {
    args: () => ({ lat: VENUE.latitude, lng: VENUE.longitude, radiusMiles: 10, ...page }),
    ...PUBLIC_READ,
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
    ...PUBLIC_READ,
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
    ...PUBLIC_READ,
  },
  "tonight:cityTimeZone": { args: () => ({ city: "New York" }), ...PUBLIC_READ },
  "venues:search": { args: () => ({ query: "Test Room" }), ...PUBLIC_READ },
  "venues:eventsAt": { args: () => ({ venueName: "The Test Room" }), ...PUBLIC_READ },
  "venues:similar": { args: () => ({ venueName: "The Test Room", city: "New York" }), ...PUBLIC_READ },
  "events:create": {
    args: () => ({
      venue: { venueName: "Fresh Venue", address: "1 Fresh St, Brooklyn, NY", latitude: 40.7, longitude: -73.95 },
      details: newMicDetails,
    }),
    ...SIGNED_IN_CHANGES,
  },
  "checkIns:checkIn": { args: (w) => ({ sceneItemId: w.ownerMic, ...VENUE }), ...SIGNED_IN_CHANGES },

  // Favourites and the schedule
  "favorites:add": { args: (w) => ({ sceneItemId: w.claimMic }), ...SIGNED_IN_CHANGES },
  "favorites:remove": { args: (w) => ({ sceneItemId: w.ownerMic }), ...SIGNED_IN_CHANGES },
  "favorites:list": { args: () => ({}), ...SIGNED_IN_READS },
  "schedule:add": { args: (w) => ({ sceneItemId: w.claimMic }), ...SIGNED_IN_CHANGES },
  "schedule:remove": { args: (w) => ({ entryId: w.ownerEntry }), ...OWNER_CHANGES },
  "schedule:removeByItem": { args: (w) => ({ sceneItemId: w.ownerMic }), ...OWNER_CHANGES },
  "schedule:week": {
    args: () => ({ weekStartMs: NOW - 3 * DAY, weekEndMs: NOW + 4 * DAY, nowMs: NOW }),
    ...SIGNED_IN_READS,
  },
  "schedule:calendar": {
    ownerAnswerShows: false,
    args: () => ({ fromMs: NOW - DAY }),
    ...SIGNED_IN_READS,
  },
};
