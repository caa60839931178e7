import { ConvexError } from "convex/values";

/** Codes of the errors a user can see; the client matches on the code and
 * shows the spec's wording. */
export const ErrorCode = {
  NOT_SIGNED_IN: "NOT_SIGNED_IN",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  INVALID_INPUT: "INVALID_INPUT",
  ALREADY_EXISTS: "ALREADY_EXISTS",
  CHECK_IN_WINDOW: "CHECK_IN_WINDOW",
  CHECK_IN_TOO_FAR: "CHECK_IN_TOO_FAR",
  CHECK_IN_NO_LOCATION: "CHECK_IN_NO_LOCATION",
  ALREADY_CHECKED_IN: "ALREADY_CHECKED_IN",
  INCOMPLETE_SCHEDULE: "INCOMPLETE_SCHEDULE",
  DUPLICATE_EVENT: "DUPLICATE_EVENT",
  RATE_LIMITED: "RATE_LIMITED",
  LIST_CLOSED: "LIST_CLOSED",
  LIST_FULL: "LIST_FULL",
  LIST_STALE: "LIST_STALE",
  /** A list sign-up from a comedian who has not chosen a stage name: the app asks for one. */
  STAGE_NAME_REQUIRED: "STAGE_NAME_REQUIRED",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The data every user-facing ConvexError carries. */
export type AppErrorData = {
  code: ErrorCode;
  message: string;
  [key: string]: string | number | boolean | null;
};

/** Throws a ConvexError with a code from {@link ErrorCode}, a message the user
 * may see, and any extra data (for example the distance of a check-in). */
export function appError(
  code: ErrorCode,
  message: string,
  extra: Record<string, string | number | boolean | null> = {},
): ConvexError<AppErrorData> {
  return new ConvexError<AppErrorData>({ code, message, ...extra });
}
