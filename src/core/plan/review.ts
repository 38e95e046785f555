/**
 * Plan review threads and their sidecar, `<stem>.review.json`, next to the plan (the plan file
 * itself stays in VT Code's format). The format, version 1:
 *
 * ```json
 * {
 *   "version": 1,
 *   "plan": "1700000000000-calm-otter",       // the plan's stem
 *   "revision": 2,                             // the revision the anchors refer to (0: no history yet)
 *   "nextId": 3,                               // ids are "c1", "c2", … and never reused
 *   "threads": [{
 *     "id": "c1",
 *     "anchor": { "kind": "step", "index": 2, "part": "files" },   // title|summary|step|test|assumption
 *     "text": "files: [src/config.ts]",       // the element's text when last anchored unchanged
 *     "status": "open",                        // open | resolved
 *     "outdated": { "text": "…old text…", "revision": 1, "vanished": false },  // absent when current
 *     "comments": [
 *       { "id": "c1.1", "author": "person", "body": "use zod here", "at": 1700000000000, "revision": 1 },
 *       { "id": "c1.2", "author": "planner", "body": "Done", "verdict": "addressed", "at": …, "revision": 1 }
 *     ],
 *     "sentIn": [1]                            // revisions whose revision request carried it
 *   }],
 *   "requests": [{ "revision": 1, "threads": ["c1"], "note": "…", "at": …, "answeredBy": 2 }]
 * }
 * ```
 *
 * Everything here is pure except `loadReview` and `saveReview`, which go through the ports.
 */
import * as z from 'zod';
import { dirname, join } from 'node:path';
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import {
  anchorLabel,
  createReanchorer,
  locateAnchor,
  planElements,
  type PlanAnchor,
  type PlanElement,
} from './anchors';
import type { validatePlan } from './validator';

export const REVIEW_FORMAT_VERSION = 1;

const anchorSchema = z.object({
  kind: z.enum(['title', 'summary', 'step', 'test', 'assumption']),
  index: z.number().int().positive().optional(),
  part: z.enum(['files', 'verify']).optional(),
});

const commentSchema = z.object({
  id: z.string().min(1),
  author: z.enum(['person', 'planner']),
  body: z.string(),
  at: z.number(),
  /** The revision the comment was written on. */
  revision: z.number().int().nonnegative(),
  verdict: z.enum(['addressed', 'declined']).optional(),
  reason: z.string().optional(),
});

const threadSchema = z.object({
  id: z.string().regex(/^c[1-9][0-9]*$/),
  anchor: anchorSchema,
  text: z.string(),
  status: z.enum(['open', 'resolved']),
  outdated: z
    .object({
      text: z.string(),
      revision: z.number().int().nonnegative(),
      /** The revision where the element changed or vanished (absent in files written before it was kept). */
      since: z.number().int().nonnegative().optional(),
      vanished: z.boolean(),
    })
    .optional(),
  comments: z.array(commentSchema).min(1),
  sentIn: z.array(z.number().int().nonnegative()),
});

const requestSchema = z.object({
  revision: z.number().int().nonnegative(),
  threads: z.array(z.string()),
  note: z.string().optional(),
  at: z.number(),
  answeredBy: z.number().int().positive().optional(),
});

export const reviewFileSchema = z.object({
  version: z.literal(REVIEW_FORMAT_VERSION),
  plan: z.string(),
  revision: z.number().int().nonnegative(),
  nextId: z.number().int().positive(),
  threads: z.array(threadSchema),
  requests: z.array(requestSchema),
});

export type ReviewFile = z.infer<typeof reviewFileSchema>;
export type ReviewThread = z.infer<typeof threadSchema>;
export type ReviewComment = z.infer<typeof commentSchema>;
export type ReviewVerdict = 'addressed' | 'declined';

/** The sidecar of a plan file: `<dir>/<stem>.review.json`. */
export function reviewFileOf(planFile: string): string {
  return join(dirname(planFile), `${planFile.replace(/^.*[\\/]/, '').replace(/\.md$/, '')}.review.json`);
}

export function emptyReview(stem: string, revision: number): ReviewFile {
  return { version: REVIEW_FORMAT_VERSION, plan: stem, revision, nextId: 1, threads: [], requests: [] };
}

const decoder = new TextDecoder();

/**
 * The review of a plan file, or an empty one when it has no sidecar. A sidecar that does not
 * parse is an error that names the file (it is never overwritten silently).
 */
export async function loadReview(reader: WorkspaceReader, planFile: string, revision = 0): Promise<ReviewFile> {
  const file = reviewFileOf(planFile);
  const stem = planFile.replace(/^.*[\\/]/, '').replace(/\.md$/, '');
  if ((await reader.stat(file))?.type !== 'file') return emptyReview(stem, revision);
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(await reader.readFile(file)));
  } catch (err) {
    throw new Error(
      `${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix or remove it`,
    );
  }
  const parsed = reviewFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${file} is not a review file: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad shape'}`,
    );
  }
  return parsed.data;
}

export async function saveReview(writer: WorkspaceWriter, planFile: string, review: ReviewFile): Promise<void> {
  await writer.writeFileAtomic(reviewFileOf(planFile), `${JSON.stringify(review, null, 2)}\n`);
}

/** The threads a revision request carries: every unresolved one. */
export function openThreads(review: ReviewFile): ReviewThread[] {
  return review.threads.filter((t) => t.status === 'open');
}

/** A new thread on the element `anchor` names in `markdown`. Throws when the plan has no such element. */
export function addThread(
  review: ReviewFile,
  markdown: string,
  anchor: PlanAnchor,
  body: string,
  at: number,
): { review: ReviewFile; thread: ReviewThread } {
  const text = body.trim();
  if (text.length === 0) throw new Error('a review comment needs some text');
  const element = locateAnchor(markdown, anchor);
  if (!element) throw new Error(`the plan has no ${anchorLabel(anchor)}`);
  const id = `c${review.nextId}`;
  const thread: ReviewThread = {
    id,
    anchor: { ...element.anchor },
    text: element.text,
    status: 'open',
    comments: [{ id: `${id}.1`, author: 'person', body: text, at, revision: review.revision }],
    sentIn: [],
  };
  return { review: { ...review, nextId: review.nextId + 1, threads: [...review.threads, thread] }, thread };
}

function replaceThread(review: ReviewFile, thread: ReviewThread): ReviewFile {
  return { ...review, threads: review.threads.map((t) => (t.id === thread.id ? thread : t)) };
}

export type ThreadChange = { ok: true; review: ReviewFile; thread: ReviewThread } | { ok: false; error: string };

function unknownId(review: ReviewFile, id: string): ThreadChange {
  const known = review.threads.map((t) => t.id);
  return {
    ok: false,
    error: `no review thread "${id}"${known.length > 0 ? `; the threads are ${known.join(', ')}` : '; this plan has no review threads'}`,
  };
}

/** A comment on a thread: the planner's answer (with its verdict) or the person's follow-up. */
export function replyToThread(
  review: ReviewFile,
  id: string,
  reply: { author: 'person' | 'planner'; body: string; verdict?: ReviewVerdict; reason?: string; at: number },
): ThreadChange {
  const thread = review.threads.find((t) => t.id === id);
  if (!thread) return unknownId(review, id);
  if (reply.body.trim().length === 0) return { ok: false, error: 'a reply needs some text' };
  const comment: ReviewComment = {
    id: `${id}.${thread.comments.length + 1}`,
    author: reply.author,
    body: reply.body.trim(),
    at: reply.at,
    revision: review.revision,
    ...(reply.verdict ? { verdict: reply.verdict } : {}),
    ...(reply.reason?.trim() ? { reason: reply.reason.trim() } : {}),
  };
  // A person's follow-up on a resolved thread opens it again.
  const status = reply.author === 'person' ? 'open' : thread.status;
  const next: ReviewThread = { ...thread, status, comments: [...thread.comments, comment] };
  return { ok: true, review: replaceThread(review, next), thread: next };
}

export function setThreadStatus(review: ReviewFile, id: string, status: 'open' | 'resolved'): ThreadChange {
  const thread = review.threads.find((t) => t.id === id);
  if (!thread) return unknownId(review, id);
  const next: ReviewThread = { ...thread, status };
  return { ok: true, review: replaceThread(review, next), thread: next };
}

/** Records that a revision request on `review.revision` carried `ids`. */
export function recordRequest(review: ReviewFile, ids: readonly string[], at: number, note?: string): ReviewFile {
  const set = new Set(ids);
  return {
    ...review,
    threads: review.threads.map((t) => (set.has(t.id) ? { ...t, sentIn: [...t.sentIn, review.revision] } : t)),
    requests: [
      ...review.requests,
      { revision: review.revision, threads: [...ids], at, ...(note?.trim() ? { note: note.trim() } : {}) },
    ],
  };
}

/**
 * Carries every thread from the revision the review refers to (`before`, its text) to revision
 * `revision` (`after`). A thread whose element changed is outdated with the old text; one whose
 * element vanished is outdated on the title. The last unanswered request is marked as answered by
 * the new revision. Returns the ids that became outdated, and those re-anchored otherwise (their
 * element moved, or an outdated thread's element changed again).
 */
export function reanchorReview(
  review: ReviewFile,
  before: string,
  after: string,
  revision: number,
  parse?: (text: string) => ReturnType<typeof validatePlan>,
): { review: ReviewFile; outdated: string[]; reanchored: string[] } {
  const carry = createReanchorer(before, after, parse);
  const outdated: string[] = [];
  const reanchored: string[] = [];
  const threads = review.threads.map((t): ReviewThread => {
    const r = carry(t.anchor);
    const anchor = { ...r.anchor };
    if (r.status === 'same') {
      if (JSON.stringify(anchor) !== JSON.stringify(t.anchor)) reanchored.push(t.id);
      return { ...t, anchor, text: r.newText };
    }
    if (!t.outdated) outdated.push(t.id);
    else reanchored.push(t.id);
    // The text the thread was written on, and the revision whose change made it outdated.
    const keep = t.outdated ?? { text: t.text, revision: review.revision, since: revision, vanished: false };
    return {
      ...t,
      anchor,
      text: r.newText,
      outdated: { ...keep, vanished: keep.vanished || r.status === 'vanished' },
    };
  });
  const requests = review.requests.map((q, i) =>
    i === review.requests.length - 1 && q.answeredBy === undefined && q.revision === review.revision
      ? { ...q, answeredBy: revision }
      : q,
  );
  return { review: { ...review, revision, threads, requests }, outdated, reanchored };
}

/** A thread as hosts show it: computed once here, carried in `review.thread.*` events. */
export interface ReviewThreadInfo {
  readonly id: string;
  readonly anchor: PlanAnchor;
  /** "step 2 (files)", "the summary"… */
  readonly label: string;
  readonly status: 'open' | 'resolved';
  /** 1-based, inclusive lines of the element in the plan file now (the title line when it vanished). */
  readonly range: { readonly start: number; readonly end: number };
  /** The element's text now ('' when it vanished). */
  readonly text: string;
  readonly outdated?: {
    /** The element's text the thread was written on, and that revision. */
    readonly text: string;
    readonly revision: number;
    /** The revision where the element changed or vanished. */
    readonly since: number;
    readonly vanished: boolean;
  };
  readonly comments: readonly ReviewComment[];
  /** The planner answered the thread's last comment. */
  readonly answered: boolean;
}

export function threadInfo(thread: ReviewThread, markdown: string | readonly PlanElement[]): ReviewThreadInfo {
  const elements = typeof markdown === 'string' ? planElements(markdown) : markdown;
  const element = locateAnchor(elements, thread.anchor) ?? (elements[0] as PlanElement);
  const last = thread.comments[thread.comments.length - 1];
  return {
    id: thread.id,
    anchor: thread.anchor,
    label: anchorLabel(thread.anchor),
    status: thread.status,
    range: { start: element.start, end: element.end },
    text: element.text,
    // A sidecar written before `since` was kept: the element changed after the revision it was written on.
    ...(thread.outdated
      ? { outdated: { ...thread.outdated, since: thread.outdated.since ?? thread.outdated.revision + 1 } }
      : {}),
    comments: thread.comments,
    answered: last?.author === 'planner',
  };
}

/** Every thread of a review as hosts show it, against the plan text now. */
export function reviewInfo(review: ReviewFile, markdown: string): ReviewThreadInfo[] {
  const elements = planElements(markdown);
  return review.threads.map((t) => threadInfo(t, elements));
}
