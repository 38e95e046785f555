/**
 * What a host reads before any engine work: plan file names and paths, settings defaults, the
 * exec environment, globs, and the listener set. Plain values, pure functions and `Emitter`, each
 * bundled into the host that imports it; every other facade loads dist/engine.js on first read
 * (esbuild.mjs), so nothing here may need the rest of the engine.
 */
export { Emitter, reportListenerError } from '../emitter';
export { DEFAULT_BUDGETS, type BudgetOverrides } from '../agent/budgets';
export {
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  INSTRUCTION_SOURCES,
  type InstructionSource,
} from '../agent/instructionSources';
export { stripTrackerBlock } from '../plan/trackerBlock';
export {
  DEFAULT_PLANS_DIR,
  historyRevisions,
  isPlanFileName,
  listPlanFiles,
  planPaths,
  revisionFileName,
  revisionOf,
} from '../plan/storeLayout';
export { EXEC_ENV } from '../tools/shellRun';
export { globToRegExpSource } from '../tools/glob';
