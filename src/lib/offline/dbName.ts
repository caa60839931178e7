/** The IndexedDB database of the offline copy and the outbox (no imports: the entry deletes it on sign-out). */
export const OFFLINE_DB_NAME = "stagetime-offline";
