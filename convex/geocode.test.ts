import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { encodeGeohash } from "./lib/geo";
import { createAdmin, createSceneItem, newTest, type TestBackend } from "./testing/test.setup";

const noCoordinates = { latitude: undefined, longitude: undefined };

function geocodeResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function okAt(lat: number, lng: number) {
  return geocodeResponse({ status: "OK", results: [{ geometry: { location: { lat, lng } } }] });
}

async function getItem(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => await ctx.db.get("sceneItems", id));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe("geocode.fixCoordinates", () => {
  test("geocodes active and inactive items without coordinates and stores lat, lng and geohash", async () => {
    vi.stubEnv("GOOGLE_MAPS_API_KEY", "test-key");
    const calls: string[] = [];
    const fetchStub = vi.fn(async (input: string | URL | Request) => {
      const url = String(input);
      calls.push(url);
      return url.includes("Cellar") ? okAt(40.73, -73.99) : okAt(41.88, -87.63);
    });
    vi.stubGlobal("fetch", fetchStub);
    const t = newTest();
    const admin = await createAdmin(t);
    const cellar = await createSceneItem(t, {
      ...noCoordinates,
      venueName: "Cellar",
      address: undefined,
      city: "New York",
    });
    const dark = await createSceneItem(t, {
      ...noCoordinates,
      venueName: "Dark Room",
      address: "1 Dark St, Chicago, IL",
      status: "inactive",
    });
    const placed = await createSceneItem(t, { venueName: "Already Placed" });

    const result = await admin.asUser.action(api.geocode.fixCoordinates, {});
    expect(result).toEqual({ updated: 2, failed: 0, failures: [] });
    expect(calls).toHaveLength(2);
    for (const url of calls) {
      expect(url.startsWith("https://maps.googleapis.com/maps/api/geocode/json?address=")).toBe(true);
      expect(url).toContain("key=test-key");
    }
    expect(calls.some((u) => u.includes(encodeURIComponent("Cellar, New York")))).toBe(true);
    expect(calls.some((u) => u.includes(encodeURIComponent("1 Dark St, Chicago, IL")))).toBe(true);
    expect(await getItem(t, cellar)).toMatchObject({
      latitude: 40.73,
      longitude: -73.99,
      geohash: encodeGeohash(40.73, -73.99, 6),
    });
    expect(await getItem(t, dark)).toMatchObject({ latitude: 41.88, longitude: -87.63, status: "inactive" });
    expect((await getItem(t, placed))!.latitude).toBe(40.7411);

    // Nothing is left to fix: no more requests.
    expect(await admin.asUser.action(api.geocode.fixCoordinates, {})).toEqual({ updated: 0, failed: 0, failures: [] });
    expect(calls).toHaveLength(2);
  });

  test("zero results, quota, denial and network errors count as failures with a reason", async () => {
    vi.stubEnv("GOOGLE_MAPS_API_KEY", "test-key");
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: string | URL | Request) => {
        const url = String(input);
        if (url.includes("Nowhere")) return geocodeResponse({ status: "ZERO_RESULTS", results: [] });
        if (url.includes("Busy")) {
          return geocodeResponse({ status: "OVER_QUERY_LIMIT", error_message: "You have exceeded your quota." });
        }
        if (url.includes("Denied")) return geocodeResponse({ status: "REQUEST_DENIED", error_message: "Bad key." });
        if (url.includes("Offline")) throw new TypeError("fetch failed");
        return okAt(30.27, -97.74);
      }),
    );
    const t = newTest();
    const admin = await createAdmin(t);
    const ids: Record<string, Id<"sceneItems">> = {};
    for (const venue of ["Nowhere", "Busy", "Denied", "Offline", "Austin Room"]) {
      ids[venue] = await createSceneItem(t, {
        ...noCoordinates,
        venueName: venue,
        address: undefined,
        title: `${venue} Mic`,
      });
    }
    const started = Date.now();
    const result = await admin.asUser.action(api.geocode.fixCoordinates, {});
    // Five requests at most five a second: the last starts at least 800 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(790);
    expect(result.updated).toBe(1);
    expect(result.failed).toBe(4);
    const reasons = Object.fromEntries(result.failures.map((f) => [f.title, f.reason]));
    expect(reasons).toEqual({
      "Nowhere Mic": "ZERO_RESULTS",
      "Busy Mic": "OVER_QUERY_LIMIT: You have exceeded your quota.",
      "Denied Mic": "REQUEST_DENIED: Bad key.",
      "Offline Mic": "Network error: fetch failed",
    });
    expect(result.failures.find((f) => f.title === "Busy Mic")!.id).toBe(ids.Busy);
    expect((await getItem(t, ids.Nowhere))!.latitude).toBeUndefined();
    expect((await getItem(t, ids.Nowhere))!.geohash).toBeUndefined();
    expect((await getItem(t, ids["Austin Room"]))!.latitude).toBe(30.27);
  });

  test("without a key every item fails with a clear reason and nothing is fetched", async () => {
    vi.stubEnv("GOOGLE_MAPS_API_KEY", "");
    const fetchStub = vi.fn();
    vi.stubGlobal("fetch", fetchStub);
    const t = newTest();
    const admin = await createAdmin(t);
    const a = await createSceneItem(t, { ...noCoordinates, title: "No Key A" });
    await createSceneItem(t, { ...noCoordinates, title: "No Key B", status: "inactive" });
    const result = await admin.asUser.action(api.geocode.fixCoordinates, {});
    expect(result.updated).toBe(0);
    expect(result.failed).toBe(2);
    expect(result.failures.map((f) => f.reason)).toEqual([
      "GOOGLE_MAPS_API_KEY is not set",
      "GOOGLE_MAPS_API_KEY is not set",
    ]);
    expect(result.failures.map((f) => f.title).sort()).toEqual(["No Key A", "No Key B"]);
    expect(fetchStub).not.toHaveBeenCalled();
    expect((await getItem(t, a))!.latitude).toBeUndefined();
  });
});
