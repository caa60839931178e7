import { describe, expect, test } from "vitest";
import { MIC_LIMITS } from "@convex/lib/micRules";
import { micEditSchema } from "@/features/admin/micEditSchema";
import { editMicSchema } from "@/features/claims/editMicSchema";
import { manualVenueSchema } from "@/features/venues/ManualVenueForm";

/** Every mic form takes its limits from the server's micRules (one place to change a limit). */
describe("mic form limits follow convex/lib/micRules", () => {
  test("the admin edit and the manual venue form agree with the server on the city", () => {
    const admin = (city: string) => micEditSchema.shape.city.safeParse(city).success;
    const manual = (city: string) => manualVenueSchema.shape.city.safeParse(city).success;
    expect(admin("c".repeat(MIC_LIMITS.city))).toBe(true);
    expect(manual("c".repeat(MIC_LIMITS.city))).toBe(true);
    expect(admin("c".repeat(MIC_LIMITS.city + 1))).toBe(false);
    expect(manual("c".repeat(MIC_LIMITS.city + 1))).toBe(false);
  });

  test("the claimant form caps its links at the server's 2000 characters", () => {
    const link = (n: number) => `https://example.com/${"p".repeat(n - 20)}`;
    expect(editMicSchema.shape.signupLink.safeParse(link(MIC_LIMITS.link)).success).toBe(true);
    const tooLong = editMicSchema.shape.signupLink.safeParse(link(MIC_LIMITS.link + 1));
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.message).toBe("Signup link must be 2000 characters or fewer");
  });
});
