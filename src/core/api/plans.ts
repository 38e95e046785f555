/**
 * Plans: the validator and parser, the store, the workspace that parses each plan once and
 * publishes its snapshot, the tracker, verify entries, anchors and reviews.
 */
export type { PlanError, PlanSummary, PlanWarning, ParsedStep, VerifyEntry } from '../plan/types';
export { validatePlan } from '../plan/validator';
export { extractPlan } from '../plan/parser';
export { diffPlans } from '../plan/diff';
export { PlanStore, type PlanListing } from '../plan/store';
export {
  PlanWorkspace,
  type ParsedPlan,
  type PlanChange,
  type PlanChangeReason,
  type PlanVerdict,
  type PlanWorkspaceOptions,
  resultIn,
} from '../plan/workspace';
export {
  STATUS_GLYPH,
  itemAtPath,
  trackerCounts,
  trackerProgress,
  parseTrackerFile,
  type Tracker,
} from '../plan/tracker';
export { parseVerifyEntry, verifyEntryOf } from '../plan/verification';
export {
  anchorFromPrefix,
  anchorLabel,
  elementAtLine,
  planElements,
  type PlanAnchor,
  type PlanElement,
} from '../plan/anchors';
export {
  loadReview,
  reviewFileOf,
  type ReviewComment,
  type ReviewFile,
  type ReviewThreadInfo,
  type ReviewVerdict,
} from '../plan/review';
export { ReviewBook, type ReviewResult, type ReviewState } from '../plan/reviewBook';
export type { ReviewEventBody } from '../events/reviewEvents';
