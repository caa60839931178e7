/**
 * The text rules every entity's rules module builds on: trimmed text with a
 * length cap, no control characters, and http(s) links. Each throws
 * INVALID_INPUT with "<Label> must be <max> characters or fewer" (or
 * "<Label> must not contain control characters") so the forms and the server
 * say the same thing.
 */
import { appError, ErrorCode } from "../errors";

export function invalid(message: string, extra: Record<string, string> = {}): never {
  throw appError(ErrorCode.INVALID_INPUT, message, extra);
}

export function tooLongMessage(label: string, max: number): string {
  return `${label} must be ${max} characters or fewer`;
}

/**
 * Characters no user text may hold: C0 controls (a multi-line field keeps
 * tab and newline), DEL and C1 controls, the line and paragraph separators
 * U+2028/U+2029, and the bidi embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069). A bare CR reaches a calendar file as a line
 * break; a bidi override shows a name or a link backwards.
 */
// Matching control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const CONTROL_CHARACTERS_ALL = new RegExp(CONTROL_CHARACTERS.source, "g");
// eslint-disable-next-line no-control-regex
const MULTILINE_CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

export type TextShape = { multiline?: boolean };

export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/** Whether `value` holds a character {@link CONTROL_CHARACTERS} refuses (tab and newline allowed when `multiline`). */
export function hasControlCharacters(value: string, { multiline = false }: TextShape = {}): boolean {
  return (multiline ? MULTILINE_CONTROL_CHARACTERS : CONTROL_CHARACTERS).test(value);
}

/**
 * `value` with every such character made harmless, for text that did not come
 * through these rules (a Google profile name, rows saved before them): line
 * breaks and tabs become spaces, the rest is dropped.
 */
export function withoutControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS_ALL, (c) => (/[\t\n\r\u2028\u2029]/.test(c) ? " " : ""));
}

/** A multi-line field's CRLF line breaks as LF (a bare CR stays, to be refused). */
function lineBreaks(value: string, multiline: boolean | undefined): string {
  return multiline ? value.replace(/\r\n/g, "\n") : value;
}

/** Refuses text with control characters (the one rule every free-text field goes through). */
export function assertNoControlCharacters(value: string, { label, multiline }: { label: string } & TextShape): void {
  if (hasControlCharacters(value, { multiline })) invalid(controlCharactersMessage(label));
}

/** Refuses text longer than `max`, or holding control characters, before any other work is done with it. */
export function assertMaxLength(
  value: string,
  { label, max, multiline }: { label: string; max: number } & TextShape,
): void {
  if (value.length > max) invalid(tooLongMessage(label, max));
  assertNoControlCharacters(value, { label, multiline });
}

/** Trimmed, non-empty text of at most `max` characters. */
export function requiredText(
  value: string,
  {
    label,
    max,
    emptyMessage = `${label} is required`,
    multiline,
  }: { label: string; max: number; emptyMessage?: string } & TextShape,
): string {
  const text = lineBreaks(value, multiline).trim();
  if (text.length === 0) invalid(emptyMessage);
  assertMaxLength(text, { label, max, multiline });
  return text;
}

/** Trimmed text of at most `max` characters, or undefined when empty or absent. */
export function optionalText(
  value: string | undefined,
  { label, max, multiline }: { label: string; max: number } & TextShape,
): string | undefined {
  if (value === undefined) return undefined;
  const text = lineBreaks(value, multiline).trim();
  if (text === "") return undefined;
  assertMaxLength(text, { label, max, multiline });
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
