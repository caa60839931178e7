import { z } from "zod";
import { controlCharactersMessage, hasControlCharacters, type TextShape } from "@convex/lib/textRules";

/**
 * A zod refinement refusing what the server's text rule refuses (control
 * characters, U+2028/2029, bidi overrides), with the server's message.
 */
export function withoutControlCharacters<S extends z.ZodType<string>>(schema: S, label: string, shape: TextShape = {}) {
  return schema.refine((value) => !hasControlCharacters(value, shape), controlCharactersMessage(label));
}
