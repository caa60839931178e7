import { describe, expect, test } from "vitest";
import { signUpSchema } from "@/components/auth/authSchema";
import { profileSchema } from "@/features/profile/profileSchema";
import { micFieldsSchema } from "./micSchema";
import { setNotesField, setTagField } from "./setFields";

const HOSTILE = ["\r", "\u0000", "\u0085", "\u2028", "\u202e", "\u2067"];

function firstMessage(result: { success: boolean; error?: { issues: Array<{ message: string }> } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? "refused");
}

describe("the forms refuse control characters with the server's message", () => {
  test.each(HOSTILE.map((c) => [JSON.stringify(c), c]))("%s", (_, c) => {
    expect(firstMessage(micFieldsSchema.shape.title.safeParse(`Open${c}Mic`))).toBe(
      "Title must not contain control characters",
    );
    expect(firstMessage(micFieldsSchema.shape.notes.safeParse(`Bring${c}friends`))).toBe(
      "Notes must not contain control characters",
    );
    expect(firstMessage(setNotesField.safeParse(`Killed${c}it`))).toBe("Notes must not contain control characters");
    expect(firstMessage(setTagField.safeParse(`crowd${c}work`))).toBe("Tags must not contain control characters");
    expect(firstMessage(profileSchema.shape.displayName.safeParse(`Casey${c}Comic`))).toBe(
      "Display name must not contain control characters",
    );
    expect(
      firstMessage(
        signUpSchema.safeParse({ email: "casey@example.com", password: "secret1", displayName: `Casey${c}Comic` }),
      ),
    ).toBe("Display name must not contain control characters");
  });

  test("a single-line field refuses a newline and a tab; notes keep them", () => {
    expect(firstMessage(micFieldsSchema.shape.title.safeParse("Open\nMic"))).toBe(
      "Title must not contain control characters",
    );
    expect(firstMessage(micFieldsSchema.shape.hostName.safeParse("Sam\tHost"))).toBe(
      "Host name must not contain control characters",
    );
    expect(micFieldsSchema.shape.notes.safeParse("Line one\n\tLine two").success).toBe(true);
    expect(setNotesField.safeParse("Opener\nCloser").success).toBe(true);
    expect(micFieldsSchema.shape.title.safeParse("Café Comédie — مساء الخير").success).toBe(true);
  });
});
