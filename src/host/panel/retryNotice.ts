/**
 * The one notice of a request's retries: added at the first `model.retrying`, patched in place by
 * the next ones, and settled in the past tense (no longer a warning, nothing counting down) when
 * the request goes through, fails for good, is stopped, or the run it belonged to is over.
 */
import type { ThreadEvent } from '../../core/api/sessions';
import type { DeltaOp } from '../../protocol';
import { noticeId, retrySettledText, retryText, type RetryEnd } from './eventText';

type Retrying = Extract<ThreadEvent, { type: 'model.retrying' }>;

export class RetryNotice {
  private open: { id: string; attempt: number; max: number; reason: string } | undefined;

  /** The id of the notice while retries are under way (the countdown patches it). */
  get id(): string | undefined {
    return this.open?.id;
  }

  /** The ops for one `model.retrying`; `add` registers a new notice item with the translator. */
  announce(event: Retrying, add: (id: string) => void): DeltaOp[] {
    const text = retryText(event.wait_ms, event.attempt, event.max_attempts, event.reason);
    const facts = { attempt: event.attempt, max: event.max_attempts, reason: event.reason };
    if (this.open) {
      this.open = { id: this.open.id, ...facts };
      return [{ op: 'item.patch', id: this.open.id, patch: { text, level: 'warning' } }];
    }
    const id = noticeId(event.seq);
    this.open = { id, ...facts };
    add(id);
    return [{ op: 'item.add', item: { id, kind: 'notice', level: 'warning', text } }];
  }

  /** The notice in the past tense; nothing when no retries are under way. */
  settle(end: RetryEnd): DeltaOp[] {
    const r = this.open;
    if (!r) return [];
    this.open = undefined;
    const text = retrySettledText(end, r.attempt, r.max, r.reason);
    return [{ op: 'item.patch', id: r.id, patch: { text, level: 'info' } }];
  }

  /** Forgets the notice without a word (a new session starts with an empty panel). */
  reset(): void {
    this.open = undefined;
  }

  /** How the event after a retry ends it: its output (it went through), the error, or Stop. */
  static endOf(event: ThreadEvent): RetryEnd | undefined {
    if (event.type === 'model.retrying' || event.type === 'model.waiting') return undefined;
    return event.type === 'error' ? 'failed' : event.type === 'run.stopped' ? 'stopped' : 'answered';
  }
}
