/**
 * Verify and build: the one verify runner and its results, and the build bound to its plan (scope,
 * the files it changed, checkpoints and Revert Build).
 */
export {
  Verifier,
  DEFAULT_VERIFY_TIMEOUT_MS,
  type VerifyRecord,
  type VerifyStatus,
  type VerifyOrigin,
  type VerifyAsk,
  type VerifierOptions,
} from '../verify/verifier';
export { stepVerdict, isAwaitingCheck, type StepVerdict } from '../verify/stepVerdict';
export { VerifyJournal, journalFileOf, type VerifyJournalPort } from '../verify/journal';
export { SCOPE_MODES, isScopeMode, type ScopeMode } from '../build/scope';
export { hashOf, type BuildManifest, type FileState } from '../build/ledger';
export type { FileChange, FileChangeAction } from '../build/fileChange';
export { planRevert, afterRevert, parseManifest, type RevertItem, type RevertPlan } from '../build/revert';
export { closedReport, reportText } from '../build/closing';
export { StaleTextError, minimalEdit } from '../build/textEdits';
export { pastTense } from '../build/guard';
