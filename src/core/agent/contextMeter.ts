/**
 * How many tokens a request will take, without a tokenizer: the provider's `prompt_tokens` for the
 * previous request, plus an estimate for the characters added since, at a characters-per-token
 * rate calibrated from the provider's own numbers as they arrive (it starts at 4, typical of
 * English and code, and is bounded so one odd report cannot run away with it).
 *
 * Characters are counted over what the provider tokenizes: message contents, tool-call names and
 * arguments, and a small overhead per message and per call for the framing. Round-trip fields are
 * not prompt text and are not counted.
 */
import type { ChatMessage } from './model';

/** Characters of framing per message and per tool call (role, ids, JSON keys). */
const MESSAGE_OVERHEAD = 16;
const CALL_OVERHEAD = 24;
const MIN_CHARS_PER_TOKEN = 1.5;
const MAX_CHARS_PER_TOKEN = 6;
const START_CHARS_PER_TOKEN = 4;

const sizes = new WeakMap<ChatMessage, number>();

/** The characters one message contributes to a request. Cached: thread messages never change. */
export function messageChars(m: ChatMessage): number {
  let n = sizes.get(m);
  if (n !== undefined) return n;
  n = MESSAGE_OVERHEAD + m.content.length;
  if (m.role === 'assistant' && m.toolCalls) {
    for (const c of m.toolCalls) n += CALL_OVERHEAD + c.id.length + c.name.length + c.arguments.length;
  }
  sizes.set(m, n);
  return n;
}

/** How far a thread's characters were summed, so an appended-to thread only adds what is new. */
const sums = new WeakMap<readonly ChatMessage[], { length: number; last: ChatMessage | undefined; chars: number }>();

/**
 * The characters of a list of messages. Runs before every request, so a thread that is only
 * appended to (the usual request view is the history array itself) is summed incrementally.
 */
export function messagesChars(messages: readonly ChatMessage[]): number {
  let sum = sums.get(messages);
  if (sum === undefined || sum.length > messages.length || messages[sum.length - 1] !== sum.last) {
    sum = { length: 0, last: undefined, chars: 0 };
    sums.set(messages, sum);
  }
  for (let i = sum.length; i < messages.length; i++) sum.chars += messageChars(messages[i]!);
  sum.length = messages.length;
  sum.last = messages[messages.length - 1];
  return sum.chars;
}

export class ContextMeter {
  private lastTokens: number | undefined;
  private lastChars = 0;
  private rate = START_CHARS_PER_TOKEN;

  /** Characters per token, as calibrated so far. */
  get charsPerToken(): number {
    return this.rate;
  }

  /** Tokens of a request of `chars` characters: the last reported count plus the estimated difference. */
  estimate(chars: number): number {
    if (this.lastTokens === undefined) return Math.ceil(chars / this.rate);
    return Math.max(0, this.lastTokens + Math.ceil((chars - this.lastChars) / this.rate));
  }

  /** The provider said a request of `chars` characters took `promptTokens`. */
  record(promptTokens: number, chars: number): void {
    if (!(promptTokens > 0) || !(chars > 0)) return;
    const observed = chars / promptTokens;
    const next = this.lastTokens === undefined ? observed : (this.rate + observed) / 2;
    this.rate = Math.min(MAX_CHARS_PER_TOKEN, Math.max(MIN_CHARS_PER_TOKEN, next));
    this.lastTokens = promptTokens;
    this.lastChars = chars;
  }

  /**
   * The provider said a request did not fit although the estimate said it would: the rate was too
   * high. With the provider's own count (`actualTokens`, when its message gave one) the rate is
   * set from it; otherwise it is lowered by a quarter.
   */
  underestimated(chars: number, actualTokens?: number): void {
    const next = actualTokens && actualTokens > 0 ? chars / actualTokens : this.rate * 0.75;
    this.rate = Math.min(MAX_CHARS_PER_TOKEN, Math.max(MIN_CHARS_PER_TOKEN, next));
    this.lastTokens = actualTokens && actualTokens > 0 ? actualTokens : undefined;
    this.lastChars = chars;
  }
}

/** The token count a context-overflow message states ("your messages resulted in 9100 tokens"), if any. */
export function statedTokens(message: string): number | undefined {
  const m =
    /resulted in (\d+) tokens/i.exec(message) ??
    /requested (\d+) tokens/i.exec(message) ??
    /"n_prompt_tokens"\s*:\s*(\d+)/.exec(message) ??
    /request \((\d+) tokens\)/i.exec(message);
  return m ? Number(m[1]) : undefined;
}
