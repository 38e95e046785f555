/**
 * Intents typed by the person while planning (rules §6).
 *
 * The text is normalised (lower-case, every non-alphanumeric character becomes a space, spaces
 * collapsed) and matched against phrase lists as whole words: `edit` never matches `credited`,
 * `approve` never matches `disapprove`, `implement` never matches `implementation`.
 *
 * Priority: stay > cancel > exit > short confirmation.
 * - stay phrases match anywhere in the message; bare `edit` / `revise` only as the whole message;
 * - cancel phrases only as the whole message, plus the command `/plan off` (checked on the raw text);
 * - exit phrases match anywhere, except `yes`, `go` and `start`, which must be the whole message;
 * - short confirmations (`continue`, `ok`, `proceed`, `do it`, `sounds good`) are exit only as the
 *   whole message and only right after the assistant asked whether to implement.
 *
 * Decisions beyond the rules' literals (kept deliberately conservative, since a false approval is
 * the failure this module exists to prevent):
 * - A negated exit phrase is not an exit: when the word right before it is `not`, `never`,
 *   `dont`, `cannot` or the `t` of a contraction (`don't`, `can't`, `won't`, `shouldn't` …),
 *   that occurrence is ignored. "don't approve yet" is no intent; "do not implement" is stay.
 * - `no` only cancels as the whole message. "no way, implement it" contains `implement` and no
 *   stay phrase, so it is exit; "no, keep planning" is stay.
 * - Whole-message words do not combine: "yes please" or "ok, do it" is no intent, and the text
 *   simply goes to the model as ordinary input.
 */
import type { PlanApprovalResponse } from './ports';

export type Intent = 'stay' | 'cancel' | 'exit' | 'none';

export interface IntentResult {
  readonly intent: Intent;
  /** The normalised phrase that decided the intent (`/plan off` for the command). */
  readonly matched?: string;
}

export interface DetectIntentOptions {
  /** True when the assistant's last message asked whether to implement the plan. */
  readonly afterImplementQuestion?: boolean;
}

export const STAY_PHRASES: readonly string[] = [
  'stay in planning workflow',
  'stay in planning',
  'keep planning',
  'continue planning',
  'do not implement',
  'don t implement',
  'not ready to implement',
  'edit the plan',
  'revise the plan',
];
export const STAY_WHOLE_MESSAGE: readonly string[] = ['edit', 'revise'];

export const CANCEL_WHOLE_MESSAGE: readonly string[] = ['no', 'n', 'cancel', 'cancel plan', 'abandon', 'abandon plan'];

export const EXIT_PHRASES: readonly string[] = [
  'go ahead and implement',
  'implement the plan',
  'start implementing',
  'execute the plan',
  'accept the plan',
  'looks good',
  'ship it',
  'implement',
  'approve',
  'approved',
  'lgtm',
];
export const EXIT_WHOLE_MESSAGE: readonly string[] = ['yes', 'go', 'start'];

export const SHORT_CONFIRMATIONS: readonly string[] = ['continue', 'ok', 'proceed', 'do it', 'sounds good'];

/** Words that, right before an exit phrase, negate it (`t` is the tail of `don't`, `can't` …). */
const NEGATORS = new Set(['not', 'never', 'dont', 'cannot', 't']);

const PLAN_OFF = /^\/plan\s+off$/i;

export function normalizeIntentText(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Word index of every whole-word occurrence of `phrase` in the normalised word list. */
function occurrences(words: readonly string[], phrase: string): number[] {
  const p = phrase.split(' ');
  const found: number[] = [];
  for (let i = 0; i + p.length <= words.length; i++) {
    if (p.every((w, j) => words[i + j] === w)) found.push(i);
  }
  return found;
}

function firstPhrase(words: readonly string[], phrases: readonly string[]): string | undefined {
  return phrases.find((p) => occurrences(words, p).length > 0);
}

function firstUnnegatedPhrase(words: readonly string[], phrases: readonly string[]): string | undefined {
  return phrases.find((p) => occurrences(words, p).some((i) => i === 0 || !NEGATORS.has(words[i - 1]!)));
}

export function detectIntent(message: string, opts: DetectIntentOptions = {}): IntentResult {
  const text = normalizeIntentText(message);
  if (text === '') return { intent: 'none' };
  const words = text.split(' ');

  const stay = firstPhrase(words, STAY_PHRASES) ?? STAY_WHOLE_MESSAGE.find((p) => p === text);
  if (stay !== undefined) return { intent: 'stay', matched: stay };

  if (PLAN_OFF.test(message.trim())) return { intent: 'cancel', matched: '/plan off' };
  const cancel = CANCEL_WHOLE_MESSAGE.find((p) => p === text);
  if (cancel !== undefined) return { intent: 'cancel', matched: cancel };

  const exit = firstUnnegatedPhrase(words, EXIT_PHRASES) ?? EXIT_WHOLE_MESSAGE.find((p) => p === text);
  if (exit !== undefined) return { intent: 'exit', matched: exit };

  if (opts.afterImplementQuestion) {
    const confirmation = SHORT_CONFIRMATIONS.find((p) => p === text);
    if (confirmation !== undefined) return { intent: 'exit', matched: confirmation };
  }
  return { intent: 'none' };
}

/**
 * The approval decision an intent stands for. `stay` becomes `revise` carrying the person's
 * message as feedback for the model (never an approval); `none` is no decision: the text is
 * ordinary input for the model.
 */
export function intentToDecision(intent: Intent, feedback?: string): PlanApprovalResponse | undefined {
  switch (intent) {
    case 'stay': {
      const text = feedback?.trim();
      return text ? { decision: 'revise', feedback: text } : { decision: 'revise' };
    }
    case 'cancel':
      return { decision: 'cancel' };
    case 'exit':
      return { decision: 'execute' };
    case 'none':
      return undefined;
  }
}
