/**
 * The text rules every entity's rules module builds on: trimmed text with a
 * length cap, and http(s) links. Each throws INVALID_INPUT with
 * "<Label> must be <max> characters or fewer" so the forms and the server say
 * the same thing.
 */
import { appError, ErrorCode } from "../errors";

export function invalid(message: string, extra: Record<string, string> = {}): never {
  throw appError(ErrorCode.INVALID_INPUT, message, extra);
}

export function tooLongMessage(label: string, max: number): string {
  return `${label} must be ${max} characters or fewer`;
}

/** Refuses text longer than `max` before any other work is done with it. */
export function assertMaxLength(value: string, { label, max }: { label: string; max: number }): void {
  if (value.length > max) invalid(tooLongMessage(label, max));
}

/** Trimmed, non-empty text of at most `max` characters. */
export function requiredText(
  value: string,
  { label, max, emptyMessage = `${label} is required` }: { label: string; max: number; emptyMessage?: string },
): string {
  const text = value.trim();
  if (text.length === 0) invalid(emptyMessage);
  assertMaxLength(text, { label, max });
  return text;
}

/** Trimmed text of at most `max` characters, or undefined when empty or absent. */
export function optionalText(
  value: string | undefined,
  { label, max }: { label: string; max: number },
): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  assertMaxLength(text, { label, max });
  return text;
}

/** Whether `s` is an absolute http(s) URL. */
export function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** An optional http(s) link of at most `max` characters; undefined when empty. */
export function optionalHttpUrl(
  value: string | undefined,
  { label, max }: { label: string; max: number },
): string | undefined {
  const text = optionalText(value, { label, max });
  if (text === undefined) return undefined;
  if (!isHttpUrl(text)) invalid(`${label} must be a valid URL (starting with http:// or https://)`);
  return text;
}
