/** The public surface of storage/: what other folders import from it. */
export { DIR_MODE, FILE_MODE, restrictPermissions } from "./dataDir.js";
export { LogWriteError } from "./dataLog.js";
export { segmentChunks } from "./segments.js";
export {
  type CompactionStats,
  DataStore,
  type DocBatch,
  type JsonDoc,
  type LoadedState,
  UploadTooLarge,
} from "./store.js";
