/** The public surface of sync/: what other folders import from it. */
export { functionResult, type QueryResult } from "./querySubscriptions.js";
export { setLogsToClients, setRedactErrors, SyncManager } from "./sync.js";
export { MAX_MESSAGE_BYTES } from "./syncSession.js";
