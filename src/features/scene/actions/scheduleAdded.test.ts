import { afterEach, describe, expect, test, vi } from "vitest";
import { toast } from "@/lib/toast";
import { announceAddedToSchedule } from "./scheduleAdded";

vi.mock("@/lib/toast", () => ({ toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() } }));

const item = { title: "Tuesday Laughs", timeZone: "America/New_York" };
const nextOccurrence = Date.UTC(2026, 10, 25, 1, 0); // Tue Nov 24, 8:00 PM in New York
const overlaps = [{ title: "Late Late Mic", startMs: Date.UTC(2026, 10, 25, 1, 30) }];
const options = { viewerTimeZone: "America/New_York", jumpToWeek: () => {} };

afterEach(() => vi.clearAllMocks());

describe("announceAddedToSchedule: after the add has committed", () => {
  test("says when it next happens and warns of overlaps, with the wording's dates", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 15, 0) });
    try {
      await announceAddedToSchedule(item, { nextOccurrence, overlaps }, options);
    } finally {
      vi.useRealTimers();
    }
    expect(toast.success).toHaveBeenCalledWith("Added Tuesday Laughs to your schedule", {
      description: "Next: Tue, Nov 24 at 8:00 PM",
    });
    expect(toast.warning).toHaveBeenCalledWith("Overlaps Late Late Mic", {
      description: expect.stringMatching(
        /^It starts at \d{1,2}:\d{2} [AP]M, within this night's set plus 30 minutes\.$/,
      ),
    });
    expect(toast.error).not.toHaveBeenCalled();
  });

  test("when the wording's chunk cannot load, it still says the add worked (never 'Failed to add to schedule')", async () => {
    const loadWording = () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"));
    await announceAddedToSchedule(item, { nextOccurrence, overlaps }, { ...options, loadWording });
    expect(toast.success).toHaveBeenCalledWith("Added Tuesday Laughs to your schedule");
    expect(toast.warning).toHaveBeenCalledWith("Overlaps Late Late Mic", undefined);
    expect(toast.error).not.toHaveBeenCalled();
  });
});
