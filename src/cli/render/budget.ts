/** The budget progress line: tool calls used/max, loop iterations and context usage. */
import type { BudgetSnapshot } from '../../core/index';

const of = (used: number, max: number) => `${used}/${max === 0 ? '∞' : max}`;

export function budgetLine(b: BudgetSnapshot): string {
  return `tool calls ${of(b.toolCalls.used, b.toolCalls.max)} · loops ${of(b.loops.used, b.loops.max)} · context ${Math.round(b.contextPercent)}%`;
}
