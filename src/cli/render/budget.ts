/** The budget line, in words: tool calls, requests to the model this turn, and the context used. */
import type { BudgetSnapshot } from '../../core/api/sessions';

const of = (used: number, max: number) => (max === 0 ? `${used}` : `${used} of ${max}`);

export function budgetLine(b: BudgetSnapshot): string {
  return `${of(b.toolCalls.used, b.toolCalls.max)} tool calls · ${of(b.loops.used, b.loops.max)} model requests · ${Math.round(b.contextPercent)}% of context`;
}
