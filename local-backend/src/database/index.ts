/** The public surface of database/: what other folders import from it. */
export { committedJson, componentReadKey, ComponentStore, creationTime } from "./componentStore.js";
export { ContentionMonitor, contentionThreshold } from "./contention.js";
export {
  type ConvexGlobal,
  type ConvexTestModule,
  type DatabaseHandle,
  type Doc,
  type FunctionModule,
  type FunctionPath,
  type LoadedSchema,
  type MetricsTracker,
  type TestAccessor,
} from "./convexTestTypes.js";
export { checkUserDocument } from "./documentLimits.js";
export {
  installDocuments,
  loadInBackground,
  readDocuments,
  type ReadDocuments,
  readDocumentsInSlices,
  whileBusy,
} from "./documentLoader.js";
export { type IndexedDatabase, indexedDatabaseClass } from "./indexedDatabase.js";
export { MutationResults } from "./mutationResults.js";
export {
  afterSchedulingTransaction,
  backoffMs,
  ConflictLog,
  currentTransaction,
  OCC_ERROR,
  occEnabled,
  OccError,
  occSettings,
  outsideTransaction,
  runInTransaction,
  Transaction,
} from "./occ.js";
export { BULK_WRITE_THRESHOLD, type Change, ReadSet } from "./readSet.js";
export { schemaPushError } from "./schemaLimits.js";
export { fingerprint, schemaForDb, schemaProblems, validateData } from "./schemaValidation.js";
