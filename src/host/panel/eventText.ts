/**
 * How the engine's events are worded in the panel's transcript: one sentence per event, the same
 * words wherever the event is shown. Pure text; `translate.ts` decides where each goes.
 */
import type { ItemPayload, ThreadEvent } from '../../core/api/sessions';

type EventOf<T extends ThreadEvent['type']> = Extract<ThreadEvent, { type: T }>;

const BUDGET_LABEL: Record<string, string> = {
  tool_calls: 'tool calls this turn',
  tool_loop: 'model round trips this turn',
  session_calls: 'tool calls this session',
  preview: 'tool output shown this turn (bytes)',
  blocked_calls: 'blocked calls',
  tokens: 'planning tokens',
};

const DECISION_TEXT = {
  execute: 'Plan approved: building in this conversation.',
  fresh_context: 'Plan approved: building in a fresh context that keeps only the plan.',
  revise: 'Staying in planning to revise the plan.',
  cancel: 'Plan cancelled.',
} as const;

/** "Plan approved: …", with the person's feedback when they asked for a revision. */
export function decisionText(e: EventOf<'plan.approval.resolved'>): string {
  const text = DECISION_TEXT[e.decision] + (e.automatic ? ' (decided by a setting)' : '');
  const detail = e.decision === 'revise' && e.feedback ? `\n\nFeedback: ${e.feedback}` : '';
  return text + detail;
}

/** What a fresh context kept. */
export function freshContextText(e: EventOf<'context.reset'>): string {
  return (
    `Fresh context: ${e.plan_preserved ? 'the approved plan was carried over' : 'the plan was not carried over'}` +
    ` (the previous context was ${Math.round(e.previous_context_usage_percent)}% full)` +
    (e.tool_budget_reset ? '; the tool budget starts again.' : '.')
  );
}

/** `Budget reached: tool calls this turn 8/8.` */
export function budgetReachedText(e: EventOf<'budget_exhausted'>): string {
  return `Budget reached: ${BUDGET_LABEL[e.budget] ?? e.budget} ${e.used}/${e.max}.`;
}

/** One line per question of a finished interview: `Header: question → answer (note)`. */
export function interviewLines(iv: NonNullable<ItemPayload['interview']>): string[] {
  return iv.questions.map((q) => {
    const a = iv.answers?.find((x) => x.questionId === q.id);
    const answer = a ? `${a.choice}${a.note ? ` (${a.note})` : ''}` : 'no answer';
    return `${q.header}: ${q.question} → ${answer}`;
  });
}

/** The id of the notice a host-side event becomes (the retry countdown patches it). */
export function noticeId(seq: number): string {
  return `host-notice-${seq}`;
}

/** `Retrying in 2 min (attempt 2 of 4): … Stop cancels the wait.` The status bar counts it down. */
export function retryText(waitMs: number, attempt: number, maxAttempts: number, reason: string): string {
  const s = Math.ceil(waitMs / 1000);
  const wait = s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  return `Retrying in ${wait} (attempt ${attempt} of ${maxAttempts}): ${reason}. Stop cancels the wait.`;
}

/** How one request's retries ended: it went through, failed for good, was stopped, or was cut off. */
export type RetryEnd = 'answered' | 'failed' | 'stopped' | 'interrupted';

/**
 * The retry notice once its request is over, in the past tense: nothing in it counts down.
 * `attempt` is the last attempt announced (2 for the first retry).
 */
export function retrySettledText(end: RetryEnd, attempt: number, maxAttempts: number, reason: string): string {
  switch (end) {
    case 'answered':
      return `The model answered on attempt ${attempt} of ${maxAttempts} (before that: ${reason}).`;
    case 'failed':
      return `Sent the request ${attempt} times; it did not go through.`;
    case 'stopped':
      return `Stopped while retrying (attempt ${attempt} of ${maxAttempts}): ${reason}.`;
    case 'interrupted':
      return `Interrupted while retrying (attempt ${attempt} of ${maxAttempts}): ${reason}.`;
  }
}

/** What a compaction did, in one line for the transcript. */
export function compactedText(e: Extract<ThreadEvent, { type: 'context.compacted' }>): string {
  const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n));
  const why =
    e.trigger === 'overflow'
      ? 'the provider said the request did not fit'
      : 'the thread passed the compaction threshold';
  const what = [
    e.stubbed_results > 0 ? `${e.stubbed_results} older tool results shortened to stubs` : '',
    e.omitted_messages > 0 ? `${e.omitted_messages} older messages left out` : '',
  ].filter(Boolean);
  return (
    `Context compacted (${why}): about ${k(e.before_tokens)} → ${k(e.after_tokens)} of ${k(e.window_tokens)} tokens` +
    `${what.length ? `; ${what.join(', ')}` : ''}. The full thread is kept; spooled results stay readable with read_spool.`
  );
}
