/**
 * The review of plan files as the engine keeps it: loads a plan's sidecar, brings its anchors up
 * to the plan's latest revision, applies one change (a thread, a reply, a resolve, a request),
 * saves, and announces it as a `review.thread.*` event. Used by the session (revision requests,
 * the planner's replies, re-anchoring when a revision arrives), by `planwise review`, and by the
 * VS Code comment threads. Changes run one after another, so two replies never lose each other.
 */
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import type { ReviewEventBody, ReviewThreadEventType } from '../events/reviewEvents';
import type { PlanAnchor } from './anchors';
import { elementAtLine } from './anchors';
import {
  addThread,
  loadReview,
  openThreads,
  reanchorReview,
  recordRequest,
  replyToThread,
  reviewInfo,
  saveReview,
  setThreadStatus,
  threadInfo,
  type ReviewFile,
  type ReviewThreadInfo,
  type ReviewVerdict,
  type ThreadChange,
} from './review';
import { revisionRequest, type RevisionRequest } from './reviewRequest';
import type { PlanStore } from './store';
import type { validatePlan } from './validator';

export interface ReviewBookDeps {
  readonly reader: WorkspaceReader;
  readonly writer: WorkspaceWriter;
  readonly store: PlanStore;
  readonly now: () => number;
  /** The one parse of a plan text (the workspace's); default: the validator. */
  readonly parse?: (text: string) => ReturnType<typeof validatePlan>;
  /** Receives every change (the session puts them on its bus). */
  readonly emit?: (event: ReviewEventBody) => void;
}

/** A plan's review as it stands: its threads against the plan file's text now. */
export interface ReviewState {
  readonly planFile: string;
  readonly revision: number;
  readonly threads: readonly ReviewThreadInfo[];
  readonly open: number;
}

export type ReviewResult = { ok: true; thread: ReviewThreadInfo } | { ok: false; error: string };

export class ReviewBook {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ReviewBookDeps) {}

  /** The review of `plan` (stem, file name or path), re-anchored to its latest revision. */
  state(plan: string): Promise<ReviewState> {
    return this.serial(async () => {
      const { review, raw, file } = await this.current(plan);
      return {
        planFile: file,
        revision: review.revision,
        threads: reviewInfo(review, raw),
        open: openThreads(review).length,
      };
    });
  }

  /** A new thread on `anchor` (or on the element under `line`). */
  add(plan: string, where: { anchor: PlanAnchor } | { line: number }, body: string): Promise<ReviewResult> {
    return this.change(plan, 'review.thread.created', (review, raw) => {
      const anchor = 'anchor' in where ? where.anchor : elementAtLine(raw, where.line).anchor;
      try {
        const r = addThread(review, raw, anchor, body, this.deps.now());
        return { ok: true, review: r.review, thread: r.thread };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    });
  }

  /** The planner's answer (`verdict`) or the person's follow-up on a thread. */
  reply(
    plan: string,
    id: string,
    reply: { author: 'person' | 'planner'; body: string; verdict?: ReviewVerdict; reason?: string },
  ): Promise<ReviewResult> {
    return this.change(plan, 'review.thread.replied', (review) =>
      replyToThread(review, id, { ...reply, at: this.deps.now() }),
    );
  }

  resolve(plan: string, id: string, resolved = true): Promise<ReviewResult> {
    return this.change(plan, resolved ? 'review.thread.resolved' : 'review.thread.reopened', (review) =>
      setThreadStatus(review, id, resolved ? 'resolved' : 'open'),
    );
  }

  /**
   * The revision request for every unresolved thread (and the note), recorded in the sidecar and
   * announced; undefined when there is nothing to send.
   */
  request(plan: string, note?: string): Promise<RevisionRequest | undefined> {
    return this.serial(async () => {
      const { review, raw, file } = await this.current(plan);
      const request = revisionRequest(review, raw, note);
      if (!request || request.threads.length === 0) return request;
      const next = recordRequest(review, request.threads, this.deps.now(), note);
      await saveReview(this.deps.writer, file, next);
      this.deps.emit?.({
        type: 'review.requested',
        plan_file: file,
        revision: review.revision,
        threads: request.threads,
        ...(note?.trim() ? { note: note.trim() } : {}),
      });
      return request;
    });
  }

  /** Brings the sidecar up to the plan's latest revision now (after a save), announcing what changed. */
  follow(plan: string): Promise<ReviewState> {
    return this.state(plan);
  }

  private change(
    plan: string,
    type: ReviewThreadEventType,
    apply: (review: ReviewFile, raw: string) => ThreadChange,
  ): Promise<ReviewResult> {
    return this.serial(async () => {
      const { review, raw, file } = await this.current(plan);
      const r = apply(review, raw);
      if (!r.ok) return r;
      await saveReview(this.deps.writer, file, r.review);
      const info = threadInfo(r.thread, raw);
      const comment = type === 'review.thread.replied' ? r.thread.comments[r.thread.comments.length - 1] : undefined;
      this.deps.emit?.({
        type,
        plan_file: file,
        revision: r.review.revision,
        thread: info,
        ...(comment ? { comment } : {}),
        open: openThreads(r.review).length,
      });
      return { ok: true, thread: info };
    });
  }

  /**
   * Loads the plan and its review; when the plan has revisions the review has not seen, carries
   * the threads across (from the revision they refer to, to the latest), saves, and announces the
   * threads that became outdated or were re-anchored.
   */
  private async current(plan: string): Promise<{ review: ReviewFile; raw: string; file: string }> {
    const loaded = await this.deps.store.load(plan);
    let review = await loadReview(this.deps.reader, loaded.file, loaded.revisions);
    if (review.revision >= loaded.revisions || review.threads.length === 0) {
      if (review.revision !== loaded.revisions && review.threads.length === 0)
        review = { ...review, revision: loaded.revisions };
      return { review, raw: loaded.raw, file: loaded.file };
    }
    // Revision 0 means the plan had no history when the threads were written: the store records
    // such a file as the first revision before saving over it.
    const base = review.revision > 0 ? review.revision : 1;
    const before = await this.deps.store.readRevision(loaded.stem, base);
    const carried = reanchorReview(review, before, loaded.raw, loaded.revisions, this.deps.parse);
    review = carried.review;
    await saveReview(this.deps.writer, loaded.file, review);
    const open = openThreads(review).length;
    const announce = (ids: readonly string[], type: ReviewThreadEventType) => {
      for (const id of ids) {
        const t = review.threads.find((x) => x.id === id);
        if (!t) continue;
        this.deps.emit?.({
          type,
          plan_file: loaded.file,
          revision: review.revision,
          thread: threadInfo(t, loaded.raw),
          open,
        });
      }
    };
    announce(carried.outdated, 'review.thread.outdated');
    announce(carried.reanchored, 'review.thread.reanchored');
    return { review, raw: loaded.raw, file: loaded.file };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The planner's side of a plan's review: what `reply_to_review_comment` writes through. */
export function plannerReplies(book: ReviewBook, plan: () => string | undefined) {
  return {
    async reply(
      id: string,
      r: { readonly body: string; readonly verdict: ReviewVerdict; readonly reason?: string },
    ): Promise<{ ok: true; label: string } | { ok: false; error: string }> {
      const file = plan();
      if (file === undefined) return { ok: false, error: 'there is no plan yet, so there are no review threads' };
      const done = await book.reply(file, id, {
        author: 'planner',
        body: r.body,
        verdict: r.verdict,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
      });
      return done.ok ? { ok: true, label: done.thread.label } : done;
    },
  };
}
