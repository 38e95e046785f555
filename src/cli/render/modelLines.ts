/** The transcript's lines for a retry's wait and a compaction (the engine's numbers, as words). */
import type { ThreadEvent } from '../../core/api/sessions';

/** `2 min`, `3 s`. */
function wait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

export function retryLine(waitMs: number, attempt: number, maxAttempts: number, reason: string): string {
  return `Retrying in ${wait(waitMs)} (attempt ${attempt} of ${maxAttempts}): ${reason}. Ctrl-C stops.`;
}

export function compactedLine(e: Extract<ThreadEvent, { type: 'context.compacted' }>): string {
  const what = [
    e.stubbed_results > 0 ? `${e.stubbed_results} older results as stubs` : '',
    e.omitted_messages > 0 ? `${e.omitted_messages} older messages left out` : '',
  ].filter(Boolean);
  return (
    `Context compacted${e.trigger === 'overflow' ? ' (the model said it did not fit)' : ''}: ` +
    `~${e.before_tokens} → ~${e.after_tokens} of ${e.window_tokens} tokens${what.length ? ` (${what.join(', ')})` : ''}.`
  );
}
