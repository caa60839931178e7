/**
 * The rules of a comedian's account and profile: every limit, in one place,
 * used by the sign-up (convex/auth.ts), the profile form (model/profiles) and
 * the client forms (src/components/auth/authSchema.ts,
 * src/features/profile/profileSchema.ts).
 */
import { assertNoControlCharacters, invalid, tooLongMessage } from "./textRules";

export const MAX_DISPLAY_NAME_LENGTH = 60;
export const MAX_DEFAULT_CITY_LENGTH = 80;
/** The longest address SMTP allows (RFC 5321: 64 + "@" + 255, at most 254 in a path). */
export const MAX_EMAIL_LENGTH = 254;
/** Shortest password a comedian may choose. */
export const MIN_PASSWORD_LENGTH = 6;
/**
 * Longest password accepted, on sign-up and on sign-in alike. 256 characters
 * is far beyond any passphrase or password-manager output (those are 20 to
 * 64), and refusing longer input before hashing keeps one request from buying
 * seconds of the backend's CPU (a 5 MB password took a second to hash).
 */
export const MAX_PASSWORD_LENGTH = 256;

/** Largest profile photo accepted: anything of 5 MB or more is refused, in the browser and again on the server. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const NOT_AN_IMAGE_MESSAGE = "Please select an image file";
export const PHOTO_TOO_LARGE_MESSAGE = "Image must be less than 5MB";

export const DISPLAY_NAME_TOO_LONG = `${tooLongMessage("Display name", MAX_DISPLAY_NAME_LENGTH)}.`;
export const EMAIL_TOO_LONG = tooLongMessage("Email", MAX_EMAIL_LENGTH);
export const PASSWORD_TOO_LONG = tooLongMessage("Password", MAX_PASSWORD_LENGTH);

/**
 * The name a comedian is shown by until they choose a stage name (the name
 * hosts announce them by). Never anything taken from their email: live lists
 * and the room screen are public. Nobody can choose it, so it always means
 * "not chosen yet".
 */
export const DEFAULT_STAGE_NAME = "Comedian";
export const STAGE_NAME_REQUIRED_MESSAGE = "Add your stage name first: it's the name the host calls you up by.";
export const STAGE_NAME_EMPTY_MESSAGE = "Please enter your stage name.";
export const DEFAULT_STAGE_NAME_MESSAGE = `Please choose your own stage name, not "${DEFAULT_STAGE_NAME}".`;

/** A name as shown: Unicode NFC, every run of spaces as one space, trimmed. */
export function normalizeName(value: string): string {
  return value.normalize("NFC").replace(/\s+/g, " ").trim();
}

/** Whether a comedian showing this name has not chosen a stage name yet (blank, or the default in any case). */
export function isDefaultStageName(name: string | null | undefined): boolean {
  const normalized = normalizeName(name ?? "");
  return normalized === "" || normalized.toLowerCase() === DEFAULT_STAGE_NAME.toLowerCase();
}

/**
 * A name the comedian typed (sign-up, the profile form, the list's stage-name
 * prompt), normalised: no control characters, at most 60 characters, and
 * never the default. Undefined when blank.
 */
export function typedStageName(value: string, label = "Display name"): string | undefined {
  assertNoControlCharacters(value.trim(), { label });
  const name = normalizeName(value);
  if (name.length > MAX_DISPLAY_NAME_LENGTH) invalid(`${tooLongMessage(label, MAX_DISPLAY_NAME_LENGTH)}.`);
  if (name === "") return undefined;
  if (isDefaultStageName(name)) invalid(DEFAULT_STAGE_NAME_MESSAGE);
  return name;
}

/** The sign-up form's name, normalised; undefined when blank or the default; refused past 60 characters. */
export function signUpName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = normalizeName(value);
  if (name.length > MAX_DISPLAY_NAME_LENGTH) invalid(DISPLAY_NAME_TOO_LONG);
  assertNoControlCharacters(value.trim(), { label: "Display name" });
  return isDefaultStageName(name) ? undefined : name;
}

/** Refuses an email or password longer than the caps, before any hashing or lookup. */
export function assertCredentialLengths(params: Record<string, unknown>): void {
  if (typeof params.email === "string" && params.email.trim().length > MAX_EMAIL_LENGTH) invalid(EMAIL_TOO_LONG);
  for (const key of ["password", "newPassword"]) {
    const value = params[key];
    if (typeof value === "string" && value.length > MAX_PASSWORD_LENGTH) invalid(PASSWORD_TOO_LONG);
  }
}
