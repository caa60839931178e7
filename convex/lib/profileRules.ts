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
/** Shortest password a comedian may choose (spec part 1 §5). */
export const MIN_PASSWORD_LENGTH = 6;
/**
 * Longest password accepted, on sign-up and on sign-in alike. 256 characters
 * is far beyond any passphrase or password-manager output (those are 20 to
 * 64), and refusing longer input before hashing keeps one request from buying
 * seconds of the backend's CPU (a 5 MB password took a second to hash).
 */
export const MAX_PASSWORD_LENGTH = 256;

export const DISPLAY_NAME_TOO_LONG = `${tooLongMessage("Display name", MAX_DISPLAY_NAME_LENGTH)}.`;
export const EMAIL_TOO_LONG = tooLongMessage("Email", MAX_EMAIL_LENGTH);
export const PASSWORD_TOO_LONG = tooLongMessage("Password", MAX_PASSWORD_LENGTH);

/** The sign-up form's name, trimmed; undefined when blank; refused past 60 characters. */
export function signUpName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.trim();
  if (name.length > MAX_DISPLAY_NAME_LENGTH) invalid(DISPLAY_NAME_TOO_LONG);
  assertNoControlCharacters(name, { label: "Display name" });
  return name === "" ? undefined : name;
}

/** Refuses an email or password longer than the caps, before any hashing or lookup. */
export function assertCredentialLengths(params: Record<string, unknown>): void {
  if (typeof params.email === "string" && params.email.trim().length > MAX_EMAIL_LENGTH) invalid(EMAIL_TOO_LONG);
  for (const key of ["password", "newPassword"]) {
    const value = params[key];
    if (typeof value === "string" && value.length > MAX_PASSWORD_LENGTH) invalid(PASSWORD_TOO_LONG);
  }
}
