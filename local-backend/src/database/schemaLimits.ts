/**
 * What a Convex push refuses in a schema's indexes, checked in Convex's order
 * and worded as Convex words it (crates/common/src/schemas/json.rs,
 * bootstrap_model/index/index_validation_error.rs, database_index/indexed_fields.rs,
 * application's `_validate_user_defined_index_fields`), so a schema that would
 * fail `npx convex deploy` fails here at start or on reload too.
 */
import type { LoadedSchema } from "./convexTestTypes.js";

type TableDef = LoadedSchema["tables"][string];

const MAX_INDEXES_PER_TABLE = 64;
/** Including the `_creationTime` Convex appends to every index: 15 of the user's own. */
const MAX_INDEX_FIELDS_SIZE = 16;
const MAX_FILTER_FIELDS = 16;
const MIN_VECTOR_DIMENSIONS = 2;
const MAX_VECTOR_DIMENSIONS = 4096;
const MAX_IDENTIFIER_LEN = 64;

class PushError extends Error {}

function fail(code: string, message: string): never {
  throw new PushError(`${code}: ${message}`);
}

/** sync_types' identifier rule: a letter or `_` first, then letters, digits, `_`; not only `_`; 64 at most. */
function isIdentifier(s: string): boolean {
  return s.length <= MAX_IDENTIFIER_LEN && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && /[A-Za-z0-9]/.test(s);
}

function indexName(table: string, name: string): void {
  if (!isIdentifier(name)) {
    fail(
      "InvalidIndexName",
      `In table "${table}": Invalid index name: "${name}". Identifiers must be 64 characters or less, start with a letter, and only contain letters, digits, underscores.`,
    );
  }
}

/** A field path is dot-separated identifiers. */
function fieldPath(table: string, index: string, field: unknown): string {
  if (typeof field !== "string" || !field.split(".").every(isIdentifier)) {
    fail("InvalidIndexField", `In table "${table}": In index "${index}": Invalid index field: "${String(field)}"`);
  }
  return field;
}

function databaseIndex(table: string, index: { indexDescriptor: string; fields: string[] }): string[] {
  const name = index.indexDescriptor;
  indexName(table, name);
  const fields = index.fields.map((f) => fieldPath(table, name, f));
  const wrap = (code: string, message: string) => fail(code, `In table "${table}": In index "${name}": ${message}`);
  if (fields.length > MAX_INDEX_FIELDS_SIZE) wrap("IndexTooManyFields", `Indexes may have up to 16 fields.`);
  if (fields.includes("_id")) {
    wrap("IndexFieldsContainId", "`_id` is not a valid index field. To load documents by ID, use `db.get(id)`.");
  }
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f))
      wrap("FieldsNotUniqueWithinIndex", `Duplicate field ${f}. Index fields must be unique within an index.`);
    seen.add(f);
  }
  return fields;
}

function filterFields(table: string, name: string, fields: unknown[]): string[] {
  const parsed = [...new Set(fields.map((f) => fieldPath(table, name, f)))];
  if (parsed.length > MAX_FILTER_FIELDS) {
    fail("IndexTooManyFilterFields", `In table "${table}": Search indexes may have up to 16 filter fields.`);
  }
  return parsed.sort();
}

/** The first two indexes (by name, as Convex's BTreeMap orders them) with the same key. */
function duplicateKey(entries: [string, string][]): [string, string] | null {
  const seen = new Map<string, string>();
  for (const [name, key] of [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const other = seen.get(key);
    if (other !== undefined) return [name, other];
    seen.set(key, name);
  }
  return null;
}

function checkTable(table: string, def: TableDef): void {
  if (table.startsWith("_")) fail("TableNameReserved", `${table} is a reserved table name.`);
  if (!isIdentifier(table)) {
    fail(
      "InvalidTableName",
      `Invalid table name: "${table}". Identifiers must start with a letter and can only contain letters, digits, and underscores.`,
    );
  }
  const exported = def.export();
  const db = [...(exported.indexes ?? []), ...(exported.stagedDbIndexes ?? [])];
  const search = [...(exported.searchIndexes ?? []), ...(exported.stagedSearchIndexes ?? [])];
  const vector = [...(exported.vectorIndexes ?? []), ...(exported.stagedVectorIndexes ?? [])];
  if (db.length + search.length + vector.length > MAX_INDEXES_PER_TABLE) {
    fail("TooManyIndexes", `Table "${table}" cannot have more than ${MAX_INDEXES_PER_TABLE} indexes.`);
  }
  const dbKeys: [string, string][] = [];
  for (const index of db) {
    const fields = databaseIndex(table, index);
    if (fields.length === 0) {
      const staged = (exported.stagedDbIndexes ?? []).includes(index) ? "staged " : "";
      fail("EmptyIndex", `In table "${table}" ${staged}index "${index.indexDescriptor}" must have at least one field.`);
    }
    dbKeys.push([index.indexDescriptor, JSON.stringify(fields)]);
  }
  const sameFields = duplicateKey(dbKeys);
  if (sameFields) {
    fail(
      "IndexNotUnique",
      `In table "${table}" index "${sameFields[0]}" and index "${sameFields[1]}" have the same fields. Indexes must be unique within a table.`,
    );
  }
  const searchKeys: [string, string][] = search.map((index) => {
    indexName(table, index.indexDescriptor);
    const field = fieldPath(table, index.indexDescriptor, index.searchField);
    return [
      index.indexDescriptor,
      JSON.stringify([field, filterFields(table, index.indexDescriptor, index.filterFields ?? [])]),
    ];
  });
  const sameSearch = duplicateKey(searchKeys);
  if (sameSearch) {
    fail(
      "SearchIndexFieldNotUnique",
      `In table "${table}" search index "${sameSearch[0]}" and search index "${sameSearch[1]}" have the same \`searchField\`. Search index fields must be unique within a table. You should combine the indexes with the same \`searchField\` into one index containing all \`filterField\`s and then use different subsets of the \`filterField\`s at query time.`,
    );
  }
  const vectorKeys: [string, string][] = vector.map((index) => {
    indexName(table, index.indexDescriptor);
    const field = fieldPath(table, index.indexDescriptor, index.vectorField);
    const dimensions = index.dimensions;
    if (!Number.isInteger(dimensions) || dimensions < MIN_VECTOR_DIMENSIONS || dimensions > MAX_VECTOR_DIMENSIONS) {
      fail(
        "InvalidVectorDimensionError",
        `In table "${table}": Dimensions ${dimensions} must be between ${MIN_VECTOR_DIMENSIONS} and ${MAX_VECTOR_DIMENSIONS}.`,
      );
    }
    filterFields(table, index.indexDescriptor, index.filterFields ?? []);
    return [index.indexDescriptor, JSON.stringify([field, dimensions])];
  });
  const sameVector = duplicateKey(vectorKeys);
  if (sameVector) {
    fail(
      "VectorIndexFieldNotUnique",
      `In table "${table}" vector index "${sameVector[0]}" and vector index "${sameVector[1]}" have the same \`vectorField\`. Vector index fields must be unique within a table. You should combine the indexes with the same \`vectorField\` into one index containing all \`filterField\`s and then use different subsets of the \`filterField\`s at query time.`,
    );
  }
  const names = new Set<string>();
  for (const { indexDescriptor: name } of [...db, ...search, ...vector]) {
    if (name === "by_id" || name === "by_creation_time" || name.startsWith("_")) {
      fail(
        "IndexNameReserved",
        `In table "${table}" cannot name an index "${name}" because the name is reserved. Indexes may not start with an underscore or be named "by_id" or "by_creation_time".`,
      );
    }
    if (names.has(name))
      fail("IndexNamesNotUnique", `Table "${table}" has two or more definitions of index "${name}".`);
    names.add(name);
  }
}

/** After parsing, Convex checks each database index's fields as a user's and appends `_creationTime`. */
function checkUserIndexFields(table: string, def: TableDef): void {
  const exported = def.export();
  for (const index of [...(exported.indexes ?? []), ...(exported.stagedDbIndexes ?? [])]) {
    const fields: string[] = index.fields;
    if (fields.includes("_creationTime")) {
      fail(
        "IndexFieldsContainCreationTime",
        "`_creationTime` is automatically added to the end of each index. It should not be added explicitly in the index definition. See https://docs.convex.dev/using/indexes for more details.",
      );
    }
    if (fields.some((f) => f.split(".").some((part) => part.startsWith("_")))) {
      fail("IndexFieldNameReserved", "Reserved fields (starting with `_`) are not allowed in indexes.");
    }
    if (fields.length + 1 > MAX_INDEX_FIELDS_SIZE) {
      fail("IndexTooManyFields", `Indexes may have up to ${MAX_INDEX_FIELDS_SIZE} fields.`);
    }
  }
}

/** Why `npx convex deploy` would refuse this schema (`schema.ts`'s default export), or null. */
export function schemaPushError(schema: unknown): string | null {
  // A SchemaDefinition: its tables' `export()` is internal to convex/server's types.
  const definitions = (schema as Partial<LoadedSchema> | null | undefined)?.tables;
  if (!definitions) return null;
  try {
    const tables = Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [table, def] of tables) checkTable(table, def);
    for (const [table, def] of tables) checkUserIndexFields(table, def);
    return null;
  } catch (error) {
    if (error instanceof PushError) return error.message;
    throw error;
  }
}
