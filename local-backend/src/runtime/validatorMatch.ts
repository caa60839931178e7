/**
 * A quick yes to "does this value pass this validator?" for convex-test's
 * validateValidator (convexTestLoader.ts calls it first). convex-test checks a
 * union by trying each member and catching its error, so every optional field
 * (`v.union(v.number(), v.null())`) or enum that misses its first member costs
 * an Error with a stack: a query returning a list of 120 rows threw hundreds
 * of them per run. This answers without throwing; it says yes only where
 * convex-test would accept, and on a no convex-test's own check runs and
 * reports the error exactly as before.
 */
import { tableNameFromId } from "../common/index.js";

type JsonValidator = {
  type: string;
  value?: unknown;
  tableName?: string;
};

/** convex-test's isSimpleObject for non-null objects. */
function isSimpleObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || prototype?.constructor?.name === "Object";
}

export function matchesValidator(validator: JsonValidator, value: unknown): boolean {
  switch (validator.type) {
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
      return value === validator.value;
    case "id":
      return typeof value === "string" && tableNameFromId(value) === validator.tableName;
    case "array": {
      if (!Array.isArray(value)) return false;
      for (const item of value) if (!matchesValidator(validator.value as JsonValidator, item)) return false;
      return true;
    }
    case "union": {
      for (const member of validator.value as JsonValidator[]) if (matchesValidator(member, value)) return true;
      return false;
    }
    case "object": {
      if (typeof value !== "object" || value === null || !isSimpleObject(value)) return false;
      const fields = validator.value as Record<string, { fieldType: JsonValidator; optional: boolean }>;
      const record = value as Record<string, unknown>;
      for (const [key, { fieldType, optional }] of Object.entries(fields)) {
        if (record[key] === undefined ? !optional : !matchesValidator(fieldType, record[key])) return false;
      }
      // Own fields only: "constructor" or "toString" is an extra field, not one of Object.prototype's.
      for (const key of Object.keys(record)) if (!Object.hasOwn(fields, key)) return false;
      return true;
    }
    default:
      // Anything else (placeholders, kinds convex-test does not know): convex-test decides.
      return false;
  }
}
