/** The bad-input fuzzer's argument generators (fuzz.test.ts): values drawn from an args validator, and whether arguments match it the way Convex checks them. */
import fc from "fast-check";
import { DAY, NOW, VENUE, type ValidatorJson } from "./test.fuzz";

// ---------------------------------------------------------------------------
// The values a generated argument may take.

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "x".repeat(10_000),
  "🎤".repeat(2_000),
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE performances; --",
  "' OR '1'='1",
  "../../etc/passwd",
  "${jndi:ldap://x}",
  "\u202Eevil\u202C",
  "\u200B\u200B",
  "Ünïcödé Çömedy 笑",
  "%00%27",
  "null",
  "undefined",
  "NaN",
  "__proto__",
  "constructor",
  "javascript:alert(1)",
  "https://example.com/mic",
  "2026-11-25",
  "2026-02-30",
  "9999-99-99",
  "19:30",
  "25:61",
  "America/New_York",
  "Mars/Olympus_Mons",
  "Test Mic",
  "The Test Room",
  "New York",
  "DELETE",
  "comic@example.com",
];

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  5,
  7,
  15,
  30,
  60,
  100,
  600,
  601,
  1000,
  1e6,
  -1e6,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Infinity,
  -Infinity,
  NaN,
  0.5,
  3.7,
  40.7411,
  -73.9897,
  90.0001,
  -180.5,
];

/** Ids to draw from, and whether values must match their validator (`strict`:
 * every field present and of its type, so calls reach the handlers with hostile
 * values) or may break it (wrong types, missing and extra fields, ids of other tables). */
export type Pools = { ids: Record<string, string[]>; strict: boolean };

function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  );
}

function number(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.integer({ min: NOW - 400 * DAY, max: NOW + 2 * DAY }) },
  );
}

/** Ids of the table (existing and deleted ones), ids of other tables, and junk. */
function idOf(table: string, pools: Pools): fc.Arbitrary<string> {
  const own = pools.ids[table] ?? [];
  const others = Object.entries(pools.ids)
    .filter(([name]) => name !== table)
    .flatMap(([, ids]) => ids);
  if (pools.strict && own.length > 0) return fc.constantFrom(...own);
  return fc.oneof(
    ...(own.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...own) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...others) },
    { weight: 1, arbitrary: hostileString() },
  );
}

/** Anything at all: the value of a wrongly typed field. */
function anything(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    number(),
    hostileString(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "userId"), fc.integer(), { maxKeys: 2 }),
  );
}

/** A deep copy with ordinary prototypes (fast-check may build null-prototype
 * objects, which no Convex client can send). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof ArrayBuffer || value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, plain(x)]));
}

/** Whole argument objects for a function's validator (the top level is always an object). */
export function argsFor(v: ValidatorJson, ids: Pools["ids"]): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .oneof(typedValue(v, { ids, strict: true }, 0), typedValue(v, { ids, strict: false }, 0))
    .map((x) => plain(x) as Record<string, unknown>);
}

function fromValidator(v: ValidatorJson, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  const typed = typedValue(v, pools, depth);
  if (pools.strict) return typed;
  // Mostly values of the right type; now and then any value at all.
  return fc.oneof({ weight: 12, arbitrary: typed }, { weight: 1, arbitrary: anything() });
}

function typedValue(v: ValidatorJson, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  switch (v.type) {
    case "null":
      return fc.constant(null);
    case "number":
      return number();
    case "bigint":
      return fc.bigInt();
    case "boolean":
      return fc.boolean();
    case "string":
      return hostileString();
    case "bytes":
      return fc.uint8Array({ maxLength: 16 }).map((a) => a.buffer);
    case "any":
      return anyParams(depth);
    case "literal":
      return fc.constant(v.value);
    case "id":
      return idOf(v.tableName, pools);
    case "array":
      return fc.oneof(
        { weight: 5, arbitrary: fc.array(fromValidator(v.value, pools, depth + 1), { maxLength: 4 }) },
        { weight: 1, arbitrary: fc.array(fromValidator(v.value, pools, depth + 1), { minLength: 20, maxLength: 200 }) },
      );
    case "record":
      return fc.dictionary(hostileString(), fromValidator(v.values.fieldType, pools, depth + 1), { maxKeys: 3 });
    case "union":
      return fc.oneof(...v.value.map((member) => typedValue(member, pools, depth)));
    case "object":
      return objectOf(v.value, pools, depth);
  }
}

/**
 * Plausible values for well-known field names, so that valid calls also get
 * past the handlers' own checks and reach the writes (a set really logged, a
 * mic really created) instead of stopping at the first "invalid time".
 */
function plausible(field: string): fc.Arbitrary<unknown> | null {
  if (/TimeLocal$/.test(field)) return fc.constantFrom("19:00", "19:30", "20:00", "23:45", "00:15");
  if (/^(date|anchorDate|today)$/.test(field))
    return fc.constantFrom("2026-11-25", "2026-12-02", "2027-01-01", "2026-02-29");
  if (field === "timeZone")
    return fc.constantFrom("America/New_York", "America/Los_Angeles", "Europe/London", "Pacific/Kiritimati");
  if (field === "dayOfWeek") return fc.integer({ min: 0, max: 6 });
  if (/minutes|Minutes$/.test(field)) return fc.integer({ min: 0, max: 120 });
  if (field === "performedAt") return fc.integer({ min: NOW - 60 * DAY, max: NOW });
  if (field === "latitude") return fc.constantFrom(VENUE.latitude, VENUE.latitude + 0.001, 34.05, 91);
  if (field === "longitude") return fc.constantFrom(VENUE.longitude, VENUE.longitude - 0.001, -118.24, 181);
  if (/title|venueName|city|hostName|displayName|name$/.test(field)) {
    return fc.constantFrom("Test Mic", "The Test Room", "New York", "Brooklyn Basement", "Ünïcödé 笑", "<b>bold</b>");
  }
  if (/Link$/.test(field)) return fc.constantFrom("https://example.com/signup", "javascript:alert(1)", "ftp://x");
  if (field === "tags") return fc.array(fc.constantFrom("crowd work", "new bit", "x".repeat(41)), { maxLength: 3 });
  return null;
}

const EXTRA_FIELDS = ["userId", "isAdmin", "createdBy", "status", "checkInCount", "extra"];

function objectOf(
  fields: Record<string, { fieldType: ValidatorJson; optional: boolean }>,
  pools: Pools,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields);
  const record = fc.record(
    Object.fromEntries(
      entries.map(([k, { fieldType }]) => {
        const any = fromValidator(fieldType, pools, depth + 1);
        const hint = pools.strict ? plausible(k) : null;
        return [k, hint === null ? any : fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: any })];
      }),
    ),
    { requiredKeys: entries.filter(([, f]) => !f.optional).map(([k]) => k) },
  ) as fc.Arbitrary<Record<string, unknown>>;
  if (pools.strict) return record;
  return fc
    .tuple(
      record,
      fc.option(fc.constantFrom(...entries.map(([k]) => k), "-"), { freq: 10 }),
      fc.option(fc.tuple(fc.constantFrom(...EXTRA_FIELDS), anything()), { freq: 12 }),
    )
    .map(([value, drop, extra]) => {
      const out = { ...value };
      if (drop !== null) delete out[drop];
      if (extra !== null) out[extra[0]] = extra[1];
      return out;
    });
}

/** `auth:signIn`'s `params` is v.any(): sign-in and sign-up forms, mostly broken. */
function anyParams(depth: number): fc.Arbitrary<unknown> {
  if (depth > 2) return anything();
  return fc.oneof(
    anything(),
    fc.record(
      {
        email: fc.oneof(hostileString(), fc.constant("olive.owner@example.com")),
        password: fc.oneof(hostileString(), fc.constant("secret1")),
        flow: fc.constantFrom("signIn", "signUp", "reset", "email-verification", "bogus"),
        name: hostileString(),
      },
      { requiredKeys: [] },
    ),
  );
}

// ---------------------------------------------------------------------------
// Whether arguments match a validator, the way Convex checks them.

export function conforms(v: ValidatorJson, value: unknown): boolean {
  switch (v.type) {
    case "null":
      return value === null;
    case "number":
      return typeof value === "number";
    case "bigint":
      return typeof value === "bigint";
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "bytes":
      return value instanceof ArrayBuffer;
    case "any":
      return true;
    case "literal":
      return value === v.value;
    case "id":
      return (
        typeof value === "string" && value.endsWith(v.tableName) && /^[0-9]+$/.test(value.slice(0, -v.tableName.length))
      );
    case "array":
      return Array.isArray(value) && value.every((x) => conforms(v.value, x));
    case "record":
      return (
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((x) => conforms(v.values.fieldType, x))
      );
    case "union":
      return v.value.some((member) => conforms(member, value));
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const obj = value as Record<string, unknown>;
      for (const [k, { fieldType, optional }] of Object.entries(v.value)) {
        if (obj[k] === undefined) {
          if (!optional) return false;
        } else if (!conforms(fieldType, obj[k])) {
          return false;
        }
      }
      return Object.keys(obj).every((k) => k in v.value);
    }
  }
}

/**
 * Convex's own argument check, as opposed to a bug. convex-test's validator
 * fails with a TypeError when an object field is null (real Convex reports a
 * validation error); the arguments were already found invalid, and the
 * validator runs before the handler, so that TypeError is the check too.
 */
export function isArgumentRejection(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return /^(Validator error|ArgumentValidationError|Value does not match validator|Cannot convert undefined or null to object$)/.test(
    message,
  );
}

/**
 * Errors @convex-dev/auth's `signIn` raises for malformed sign-in requests
 * (its own input checks, not our code); anything else from it is a failure.
 */
export function isAuthLibraryRefusal(name: string, error: unknown): boolean {
  if (name !== "auth:signIn" && name !== "auth:signOut") return false;
  const message = error instanceof Error ? error.message : "";
  return [
    /^Cannot sign in: Missing/,
    /^Can.t parse refresh token/,
    /^Provider .* is not (configured|supported)/,
    /^Could not verify code$/,
    /^Expected `redirectTo` to be a string/,
    /^Missing (provider id|sign-in verifier)$/,
    /^Missing `\w+` param/,
    /^(Password reset|Email verification) is not enabled/,
    /^Invalid (code|password|credentials|verifier|refresh token)$/,
  ].some((pattern) => pattern.test(message));
}
