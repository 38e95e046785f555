/**
 * Plan review events (`review.thread.*`): a thread was created, answered, made outdated by a new
 * revision, re-anchored (its element moved, or changed again), resolved or reopened, and a revision request carried
 * threads to the planner. Each carries the thread as the engine computed it (its element, lines,
 * outdated text) and the plan's count of unresolved threads, so hosts render and never recompute.
 * They go to the archive like every event, so a reload or `resume` restores them.
 */
import type { ReviewComment, ReviewThreadInfo } from '../plan/review';

export type ReviewThreadEventType =
  | 'review.thread.created'
  | 'review.thread.replied'
  | 'review.thread.outdated'
  | 'review.thread.reanchored'
  | 'review.thread.resolved'
  | 'review.thread.reopened';

export type ReviewEventBody =
  | {
      readonly type: ReviewThreadEventType;
      readonly plan_file: string;
      /** The revision the thread's anchor refers to now. */
      readonly revision: number;
      readonly thread: ReviewThreadInfo;
      /** For `replied`: the comment just added. */
      readonly comment?: ReviewComment;
      /** Unresolved threads of the plan after this change. */
      readonly open: number;
    }
  | {
      /** A revision request carried these threads (every unresolved one) to the planner. */
      readonly type: 'review.requested';
      readonly plan_file: string;
      /** The revision the threads were written on. */
      readonly revision: number;
      readonly threads: readonly string[];
      readonly note?: string;
    };
