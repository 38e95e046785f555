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
import type { LoadedPlan, PlanStore } from './store';
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
  /** A plan's review as it stands after each read or change, before its event goes out. */
  readonly settled?: (state: ReviewState) => void;
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
      return this.settle(file, review, raw);
    });
  }

  /**
   * The review of a plan just loaded, anchored to the text it was loaded with, without writing:
   * threads the sidecar still holds on an older revision are carried across in memory. What the
   * workspace's `ParsedPlan` carries.
   */
  view(loaded: LoadedPlan): Promise<ReviewState> {
    return this.serial(async () => {
      const review = await this.carried(loaded);
      return stateOf(loaded.file, review.review, loaded.raw);
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
      this.settle(file, next, raw);
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
      this.settle(file, r.review, raw);
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
   * the threads across, saves, and announces the threads that became outdated or were re-anchored.
   */
  private async current(plan: string): Promise<{ review: ReviewFile; raw: string; file: string }> {
    const loaded = await this.deps.store.load(plan);
    const carried = await this.carried(loaded);
    const review = carried.review;
    if (carried.outdated.length + carried.reanchored.length > 0 || carried.moved) {
      await saveReview(this.deps.writer, loaded.file, review);
      this.settle(loaded.file, review, loaded.raw);
    }
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

  /**
   * A loaded plan's review brought up to its latest revision, one revision at a time, so an
   * outdated thread names the revision where its element changed. Reads, never writes. `moved`:
   * the review referred to an older revision (it needs saving even when no thread changed).
   */
  private async carried(
    loaded: LoadedPlan,
  ): Promise<{ review: ReviewFile; outdated: string[]; reanchored: string[]; moved: boolean }> {
    let review = await loadReview(this.deps.reader, loaded.file, loaded.revisions);
    if (review.revision >= loaded.revisions) return { review, outdated: [], reanchored: [], moved: false };
    if (review.threads.length === 0)
      return { review: { ...review, revision: loaded.revisions }, outdated: [], reanchored: [], moved: false };
    // Revision 0 means the plan had no history when the threads were written: the store records
    // such a file as the first revision before saving over it.
    const writtenOn = review.revision;
    let from = writtenOn > 0 ? writtenOn : 1;
    let before = await this.deps.store.readRevision(loaded.stem, from);
    const outdated = new Set<string>();
    const reanchored = new Set<string>();
    while (from < loaded.revisions) {
      const to = from + 1;
      const after = to === loaded.revisions ? loaded.raw : await this.deps.store.readRevision(loaded.stem, to);
      // Each step starts from the revision the sidecar referred to, which an outdated thread names.
      const step = reanchorReview({ ...review, revision: writtenOn }, before, after, to, this.deps.parse);
      review = step.review;
      for (const id of step.outdated) outdated.add(id);
      for (const id of step.reanchored) if (!outdated.has(id)) reanchored.add(id);
      before = after;
      from = to;
    }
    return { review, outdated: [...outdated], reanchored: [...reanchored], moved: true };
  }

  private settle(file: string, review: ReviewFile, raw: string): ReviewState {
    const state = stateOf(file, review, raw);
    this.deps.settled?.(state);
    return state;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function stateOf(file: string, review: ReviewFile, raw: string): ReviewState {
  return {
    planFile: file,
    revision: review.revision,
    threads: reviewInfo(review, raw),
    open: openThreads(review).length,
  };
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
