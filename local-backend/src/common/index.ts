/** The public surface of common/: what other folders import from it. */
export { ContextSlot } from "./contextSlot.mjs";
export {
  currentTableNumbers,
  isRefusedLegacyId,
  setCurrentTableNumbers,
  storedIdTable,
  tableNameFromId,
  TableNumbers,
} from "./ids.js";
export { intKnob, knob } from "./knobs.js";
export { findUp } from "./ownPaths.js";
