/**
 * Security issue 13 items 3 and 8 (and issue 15 item 3): every entry point
 * caps its strings with the same limits (convex/lib/micRules.ts), and every
 * coordinate is finite and in range. Each test is an attack that today's code
 * (before the rules modules) accepted.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import "./lib/time";
import { INVALID_COORDINATES_MESSAGE } from "./lib/geo";
import { MIC_LIMITS } from "./lib/micRules";
import { expectAppError } from "./testing/test.expect";
import { createAdmin, createSceneItem, createUser, newTest, type TestBackend } from "./testing/test.setup";
import { useFrozenClock } from "./testing/test.clock";

const VENUE = { venueName: "The Cellar", latitude: 40.7411, longitude: -73.9897 };
const DETAILS = {
  type: "open_mic" as const,
  title: "Cellar Mic",
  dayOfWeek: 3,
  startTimeLocal: "20:00",
  recurrence: "weekly" as const,
  signupMethod: "online" as const,
  signupLink: "https://example.com/signup",
};
const MEGABYTE = "x".repeat(1024 * 1024);

let t: TestBackend;
// Wednesday 2026-11-25 19:45 in New York: the Wednesday 20:00 mic's window is open.
useFrozenClock(Date.parse("2026-11-25T19:45:00-05:00"));
beforeEach(() => {
  t = newTest();
});

async function item(id: Id<"sceneItems">) {
  return (await t.run(async (ctx) => ctx.db.get("sceneItems", id)))!;
}

describe("one set of mic limits on every write path", () => {
  test("create and admin edit agree on the city: 200 characters saves on both, 201 is refused on both", async () => {
    const comic = await createUser(t);
    const admin = await createAdmin(t);
    const city = "c".repeat(MIC_LIMITS.city);
    const { sceneItemId } = await comic.asUser.mutation(api.events.create, {
      venue: { ...VENUE, city },
      details: DETAILS,
    });
    // The admin can save the mic the comedian created, as it is.
    const mic = await item(sceneItemId);
    await admin.asUser.mutation(api.admin.updateMic, {
      id: sceneItemId,
      title: mic.title,
      venueName: mic.venueName,
      city: mic.city,
      type: mic.type,
      dayOfWeek: mic.dayOfWeek ?? null,
      startTimeLocal: mic.startTimeLocal ?? "20:00",
      status: mic.status,
    });
    const tooLong = `${city}c`;
    await expectAppError(
      comic.asUser.mutation(api.events.create, {
        venue: { ...VENUE, venueName: "Other Room", city: tooLong },
        details: DETAILS,
      }),
      "INVALID_INPUT",
      "City must be 200 characters or fewer",
      { exact: true },
    );
    await expectAppError(
      admin.asUser.mutation(api.admin.updateMic, {
        id: sceneItemId,
        title: mic.title,
        venueName: mic.venueName,
        city: tooLong,
        type: mic.type,
        dayOfWeek: 3,
        startTimeLocal: "20:00",
        status: "active",
      }),
      "INVALID_INPUT",
      "City must be 200 characters or fewer",
      { exact: true },
    );
  });

  test("the claimant's (or creator's) sign-up and show links are capped like the wizard's", async () => {
    const creator = await createUser(t);
    const mic = await createSceneItem(t, { createdBy: creator.userId, signupMethod: "online" });
    const edit = { micId: mic, title: "Test Mic", dayOfWeek: 3, startTimeLocal: "20:00" };
    const hugeLink = `https://example.com/${MEGABYTE}`;
    for (const field of ["signupLink", "showLink"] as const) {
      await expectAppError(
        creator.asUser.mutation(api.claims.updateOwnMic, { ...edit, [field]: hugeLink }),
        "INVALID_INPUT",
        /link must be 2000 characters or fewer/,
      );
    }
    expect((await item(mic)).signupLink).toBeUndefined();
    // At the cap it saves.
    const atCap = `https://example.com/${"p".repeat(MIC_LIMITS.link - 20)}`;
    expect(atCap).toHaveLength(MIC_LIMITS.link);
    await creator.asUser.mutation(api.claims.updateOwnMic, { ...edit, signupLink: atCap });
    expect((await item(mic)).signupLink).toBe(atCap);
  });

  test("1 MB strings are refused by the claim, admin search and own-mic notes", async () => {
    const comic = await createUser(t);
    const admin = await createAdmin(t);
    const mic = await createSceneItem(t, { createdBy: comic.userId });
    await expectAppError(comic.asUser.mutation(api.claims.submit, { micId: mic, message: MEGABYTE }), "INVALID_INPUT");
    await expectAppError(admin.asUser.query(api.admin.listMics, { search: MEGABYTE }), "INVALID_INPUT");
    await expectAppError(
      comic.asUser.mutation(api.claims.updateOwnMic, {
        micId: mic,
        title: "T",
        dayOfWeek: 1,
        startTimeLocal: "19:30",
        notes: MEGABYTE,
      }),
      "INVALID_INPUT",
    );
  });
});

describe("coordinates are finite and in range everywhere", () => {
  const BAD: Array<[number, number]> = [
    [Infinity, -73.9897],
    [40.7411, -Infinity],
    [NaN, -73.9897],
    [40.7411, NaN],
    [90.0001, -73.9897],
    [40.7411, 180.5],
    [-91, 0],
  ];

  test.each(BAD)(
    "a check-in from (%d, %d) is refused with a clear error and writes nothing",
    async (latitude, longitude) => {
      const comic = await createUser(t);
      const mic = await createSceneItem(t, { dayOfWeek: 3, startTimeLocal: "20:00" });
      await expectAppError(
        comic.asUser.mutation(api.checkIns.checkIn, { sceneItemId: mic, latitude, longitude }),
        "INVALID_INPUT",
        INVALID_COORDINATES_MESSAGE,
        { exact: true },
      );
      expect((await item(mic)).checkInCount).toBe(0);
      const checkIns = await t.run(async (ctx) => ctx.db.query("checkIns").take(5));
      expect(checkIns).toEqual([]);
    },
  );

  test("the geocoder's internal save refuses non-finite coordinates", async () => {
    const mic = await createSceneItem(t, { latitude: undefined, longitude: undefined });
    for (const [latitude, longitude] of BAD) {
      await expect(t.mutation(internal.geocode.saveCoordinates, { id: mic, latitude, longitude })).rejects.toThrow(
        /latitude from -90 to 90/,
      );
    }
    expect((await item(mic)).latitude).toBeUndefined();
  });

  test("the area list refuses non-finite coordinates", async () => {
    for (const [lat, lng] of BAD) {
      await expectAppError(
        t.query(api.sceneArea.listArea, { lat, lng, radiusMiles: 10, paginationOpts: { numItems: 10, cursor: null } }),
        "INVALID_INPUT",
      );
    }
  });
});
