/**
 * The engine's public surface: the only module of `src/core` that hosts (`src/host`, `src/cli`,
 * `src/node`) import. `test/arch/layering.test.ts` enforces it. What is not exported here is the
 * engine's own business.
 */

// ---- ports: what a host implements ----------------------------------------------------------
export type * from './ports';
export type * from './lifecycle/ports';
export * from './agent/model';
export { Emitter, reportListenerError } from './emitter';
export { DEFAULT_BUDGETS, type BudgetOverrides } from './agent/budgets';
export { StreamAccumulator } from './agent/streamAccumulator';
export { InlineReasoningSplitter } from './agent/inlineReasoning';
export {
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  INSTRUCTION_SOURCES,
  type InstructionSource,
} from './agent/instructionSources';
export type { InstructionFileInfo, InstructionsConfig } from './agent/instructions';
export type * from './mcp/ports';

// ---- sessions and their events --------------------------------------------------------------
export type * from './session/api';
export type * from './events/types';
export type { AwaitingCheck } from './session/trackerView';
export type { SessionStanding, TrackerStanding } from './session/standing';
export type { HandEditOutcome } from './session/handEdit';
export { createSession, resumeSession } from './session/session';
export { SessionArchive } from './events/archive';

// ---- plans ------------------------------------------------------------------------------------
export type { PlanError, PlanSummary, PlanWarning, ParsedStep, VerifyEntry } from './plan/types';
export { validatePlan } from './plan/validator';
export { extractPlan } from './plan/parser';
export { diffPlans } from './plan/diff';
export { stripTrackerBlock } from './plan/trackerBlock';
export {
  DEFAULT_PLANS_DIR,
  historyRevisions,
  isPlanFileName,
  listPlanFiles,
  planPaths,
  revisionFileName,
  revisionOf,
} from './plan/storeLayout';
export { PlanStore, type PlanListing } from './plan/store';
export {
  PlanWorkspace,
  type ParsedPlan,
  type PlanChange,
  type PlanChangeReason,
  type PlanVerdict,
  type PlanWorkspaceOptions,
  resultIn,
} from './plan/workspace';
export {
  STATUS_GLYPH,
  itemAtPath,
  trackerCounts,
  trackerProgress,
  parseTrackerFile,
  type Tracker,
} from './plan/tracker';
export { parseVerifyEntry, verifyEntryOf } from './plan/verification';
export {
  anchorFromPrefix,
  anchorLabel,
  elementAtLine,
  planElements,
  type PlanAnchor,
  type PlanElement,
} from './plan/anchors';
export {
  loadReview,
  reviewFileOf,
  type ReviewComment,
  type ReviewFile,
  type ReviewThreadInfo,
  type ReviewVerdict,
} from './plan/review';
export { ReviewBook, type ReviewResult, type ReviewState } from './plan/reviewBook';
export type { ReviewEventBody } from './events/reviewEvents';
export { detectIntent, intentToDecision, normalizeIntentText } from './lifecycle/intents';

// ---- verify: the one runner and result store ------------------------------------------------
export {
  Verifier,
  DEFAULT_VERIFY_TIMEOUT_MS,
  type VerifyRecord,
  type VerifyStatus,
  type VerifyOrigin,
  type VerifyAsk,
  type VerifierOptions,
} from './verify/verifier';
export { stepVerdict, isAwaitingCheck, type StepVerdict } from './verify/stepVerdict';
export { VerifyJournal, journalFileOf, type VerifyJournalPort } from './verify/journal';

// ---- the build bound to its plan: scope, checkpoints, Revert Build, the closing report --------
export type * from './build/ports';
export { SCOPE_MODES, isScopeMode, type ScopeMode } from './build/scope';
export { hashOf, type BuildManifest, type FileState } from './build/ledger';
export type { FileChange, FileChangeAction } from './build/fileChange';
export { planRevert, afterRevert, parseManifest, type RevertItem, type RevertPlan } from './build/revert';
export { StaleTextError, minimalEdit } from './build/textEdits';
export { pastTense } from './build/guard';

// ---- the read-only gate (`planwise check-command`) ---------------------------------------------
export { judgeCommand, type GateContext, type Judgement } from './gate';

// ---- the build side's one command policy (rules §9) -------------------------------------------
export {
  allowListProblems,
  decideBuildCommand,
  type BuildDecision,
  type BuildPolicyContext,
} from './tools/build/buildPolicy';
export {
  permitCommand,
  howToAllow,
  shellQuote,
  type CommandAsk,
  type CommandPermit,
} from './tools/build/commandPermit';

// ---- tools hosts reuse -------------------------------------------------------------------------
export { EXEC_ENV } from './tools/shellRun';
export { globToRegExpSource } from './tools/glob';
export { HEAVY_DIRS, IgnoreRules, rootOf } from './tools/ignoreRules';
export { JsSearcher } from './tools/jsSearch';
export { comparePaths } from './tools/pathOrder';
