/** The public surface of runtime/: what other folders import from it. */
export { invokeActionInWorker, invokeHttpActionInWorker } from "./actions/actionHost.js";
export { ActionPool, actionWorkerCount } from "./actions/actionPool.js";
export { type Bundle, FUNCTION_ENV_GLOBAL } from "./bundle/bundler.js";
export { devFunctionsDirFor } from "./bundle/devFunctions.js";
export { ConcurrentMutations } from "./concurrentMutations.js";
export { hooks, loadConvexTest } from "./convexTestLoader.js";
export { CronRunner } from "./crons.js";
export {
  type Caller,
  canonicalPath,
  captureLogs,
  type FunctionInfo,
  type FunctionKind,
  installConsoleCapture,
  type Journal,
  mutationTag,
  type MutationTag,
  outsideLogs,
  readTracker,
  setLogsToClients,
  tableFromId,
} from "./functionContext.js";
export { describeError, describeErrorFully, httpActionErrorBody, setRedactErrors } from "./functionErrors.js";
export { FunctionModules, loadSchema } from "./functionModules.js";
export { installFunctionRandom, withFunctionRandom } from "./functionRandom.mjs";
export { ScheduledJobs } from "./scheduledJobs.js";
export { wrapSyscalls } from "./syscalls.js";
export { installUserTimeLimits, servingThreadCpuMs, setActionThreadActivity } from "./userTime.js";
