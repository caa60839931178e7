/** The public surface of engine/: what other folders import from it. */
export {
  demoAccountsWithSeedPasswords,
  guardDemoAccounts,
  type PublishedPasswords,
  readPublishedPasswords,
  runRecordingSeed,
  SEED_FUNCTION,
} from "./demoAccounts.js";
export { Engine } from "./engine.js";
export { type FileStorage } from "./fileStorage.js";
export { warmFunctions } from "./warmup.js";
