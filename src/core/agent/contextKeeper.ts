/**
 * Keeps each request inside the context window. Before every request it measures the request
 * (the provider's last `prompt_tokens` plus a calibrated estimate for what was added, or the
 * provider's own `countTokens`), and past `compactAtPercent` of the window it compacts the request
 * view (see `compaction.ts`) down to 20 points under the threshold, emitting `context.compacted`.
 * When the provider still says the request did not fit, it recalibrates from the provider's words
 * and compacts harder, once. State lives per thread (the history array), across turns.
 */
import type { EventBus } from '../events/bus';
import type { Spool } from '../spool';
import { NO_COMPACTION, applyCompaction, planCompaction, type CompactionState } from './compaction';
import { ContextMeter, messagesChars, statedTokens } from './contextMeter';
import type { ChatMessage } from './model';

export const DEFAULT_COMPACT_AT_PERCENT = 80;
/** After an overflow the view is compacted to this share of the window. */
const OVERFLOW_TARGET_PERCENT = 50;

interface ThreadContext {
  readonly meter: ContextMeter;
  state: CompactionState;
}

const threads = new WeakMap<readonly ChatMessage[], ThreadContext>();

export interface KeeperDeps {
  readonly bus: EventBus;
  readonly turnId: string;
  readonly windowTokens: number;
  readonly compactAtPercent: number;
  /** Characters of what every request carries besides the thread: the system prompt and tool schemas. */
  readonly fixedChars: number;
  readonly spool?: Spool;
  /** The provider's own token count of a thread view (VS Code's `countTokens`), when it has one. */
  readonly countTokens?: (messages: readonly ChatMessage[]) => Promise<number>;
}

export interface PreparedView {
  readonly messages: readonly ChatMessage[];
  /** Characters measured (for calibration once usage comes back). */
  readonly chars: number;
  readonly tokens: number;
}

export class ContextKeeper {
  private readonly thread: ThreadContext;

  constructor(
    history: readonly ChatMessage[],
    private readonly deps: KeeperDeps,
  ) {
    let t = threads.get(history);
    if (t === undefined) {
      t = { meter: new ContextMeter(), state: NO_COMPACTION };
      threads.set(history, t);
    }
    this.thread = t;
  }

  private tokensOf(messages: readonly ChatMessage[]): number {
    return this.thread.meter.estimate(this.deps.fixedChars + messagesChars(messages));
  }

  /** The view to send: compacted when it would pass the threshold (or, after an overflow, harder). */
  async prepare(view: readonly ChatMessage[], trigger?: 'overflow'): Promise<PreparedView> {
    const { windowTokens, compactAtPercent, spool } = this.deps;
    let current = applyCompaction(view, this.thread.state, spool);
    if (this.deps.countTokens) {
      // The provider's own count calibrates the estimate that chooses how far to compact.
      const counted = await this.deps.countTokens(current.messages);
      this.thread.meter.record(counted, this.deps.fixedChars + messagesChars(current.messages));
    }
    const before = this.tokensOf(current.messages);
    const limit = (windowTokens * compactAtPercent) / 100;
    if (trigger === 'overflow' || before > limit) {
      const targetPercent = trigger === 'overflow' ? OVERFLOW_TARGET_PERCENT : Math.max(10, compactAtPercent - 20);
      const planned = planCompaction(
        view,
        this.thread.state,
        (windowTokens * targetPercent) / 100,
        (m) => this.tokensOf(m),
        spool,
      );
      const moved =
        planned.state.stubBefore !== this.thread.state.stubBefore ||
        planned.state.omitBefore !== this.thread.state.omitBefore;
      this.thread.state = planned.state;
      current = planned.view;
      const after = this.tokensOf(current.messages);
      if (moved || trigger === 'overflow') {
        this.deps.bus.emit({
          type: 'context.compacted',
          turn_id: this.deps.turnId,
          trigger: trigger ?? 'threshold',
          before_tokens: before,
          after_tokens: after,
          window_tokens: windowTokens,
          stubbed_results: current.stubbed,
          omitted_messages: current.omitted,
        });
      }
    }
    const chars = this.deps.fixedChars + messagesChars(current.messages);
    return { messages: current.messages, chars, tokens: this.thread.meter.estimate(chars) };
  }

  /** The provider reported the prompt tokens of the request sent with `chars` characters. */
  recordUsage(promptTokens: number, chars: number): void {
    this.thread.meter.record(promptTokens, chars);
  }

  /** The provider said the request of `chars` characters did not fit; `message` may state its size. */
  overflowed(chars: number, message: string): void {
    this.thread.meter.underestimated(chars, statedTokens(message));
  }
}
