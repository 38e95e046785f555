/**
 * The approval gate on the terminal: the plan's title, summary and steps, then three choices.
 * A typed answer is read with the intent rules (stay wins over exit; `cancel`, `no` cancel),
 * and anything that is not a clear decision is sent to the planner as revision feedback —
 * never taken as approval. The plan's verify commands are listed whole with what the build does
 * with each (runs read-only / on your allow-list / will ask / never runs).
 */
import type { PlanApprovalRequest, PlanApprovalResponse } from '../../core/api/ports';
import {
  detectIntent,
  intentToDecision,
  normalizeIntentText,
  type VerifyCommandVerdict,
} from '../../core/api/sessions';
import type { Printer } from '../render/printer';
import type { Style } from '../render/style';

export const GATE_CHOICES = [
  '1) Yes, implement this plan',
  '2) Yes, clear context and implement',
  '3) No, stay in Plan mode',
] as const;

/** What the build does with a verify command, as the gate card lists it (the panel's words). */
export const VERDICT_WORDS: Record<VerifyCommandVerdict, string> = {
  read_only: 'runs read-only',
  allow_list: 'on your allow-list',
  ask: 'will ask',
  refused: 'never runs',
};

/** The commands the card offers to approve with the plan (they would ask before running). */
export function approvableCommands(card: PlanApprovalRequest['card']): string[] {
  return [...new Set((card.verifyCommands ?? []).filter((c) => c.approvable).map((c) => c.command))];
}

export type GateAnswer =
  | { readonly kind: 'decision'; readonly response: PlanApprovalResponse; readonly understood: string }
  /** "3": stay in Plan mode; the person is asked what should change. */
  | { readonly kind: 'stay' }
  | { readonly kind: 'empty' };

const FRESH_WORDS = /\b(clear|fresh|new) (the )?context\b/;

/** How one typed line at the gate is understood. */
export function parseGateAnswer(text: string): GateAnswer {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const number = /^([1-3])\s*[.)]?$/.exec(trimmed)?.[1];
  if (number === '1') return { kind: 'decision', response: { decision: 'execute' }, understood: 'choice 1' };
  if (number === '2') return { kind: 'decision', response: { decision: 'fresh_context' }, understood: 'choice 2' };
  if (number === '3') return { kind: 'stay' };
  const intent = detectIntent(trimmed, { afterImplementQuestion: true });
  const decided = intentToDecision(intent.intent, trimmed);
  if (!decided) {
    return {
      kind: 'decision',
      response: { decision: 'revise', feedback: trimmed },
      understood: 'not a clear decision, so it is feedback for the planner',
    };
  }
  const response: PlanApprovalResponse =
    decided.decision === 'execute' && FRESH_WORDS.test(normalizeIntentText(trimmed))
      ? { decision: 'fresh_context' }
      : decided;
  return { kind: 'decision', response, understood: `“${intent.matched ?? trimmed}”` };
}

/**
 * Prints the plan awaiting approval and the three choices. When the transcript has just printed
 * this plan whole (`planOnScreen`), its summary and steps are not printed again: the gate names the
 * plan and says what it asks.
 */
export function printGate(
  printer: Printer,
  style: Style,
  request: PlanApprovalRequest,
  shownPath: string,
  planOnScreen = false,
): void {
  printer.line();
  const card = request.card;
  printer.line(style.bold(`Implement this plan? ${card.title}`));
  const by = card.author === 'person' ? ' · your edit' : '';
  if (card.changes) printer.line(style.dim(`  revision ${card.revision}${by} · ${card.changes.summary}`));
  else if (by) printer.line(style.dim(`  revision ${card.revision}${by}`));
  if (card.proposedDuringExecution) printer.line(style.yellow('  (proposed during execution)'));
  if (!planOnScreen) {
    if (card.summary) printer.line(`  ${card.summary.replace(/\s+/g, ' ').trim()}`);
    card.steps.forEach((s, i) => printer.line(`  ${i + 1}. ${s}`));
    if (card.moreSteps > 0) printer.line(style.dim(`  …and ${card.moreSteps} more`));
  }
  if (!card.validation.valid) {
    for (const p of card.validation.problems) printer.line(style.red(`  ! ${p}`));
  }
  const listed = card.verifyCommands ?? [];
  if (listed.length > 0) {
    printer.line(`  verify commands:`);
    for (const c of listed) {
      const text = VERDICT_WORDS[c.verdict];
      printer.line(
        `    step ${c.step}: $ ${c.command}  ${c.verdict === 'ask' || c.verdict === 'refused' ? style.yellow(`(${text})`) : style.dim(`(${text})`)}`,
      );
    }
  }
  printer.line(style.dim(`  plan: ${shownPath} · context ${Math.round(card.contextPercent)}% used`));
  printer.line(`  ${GATE_CHOICES.join('  ')}`);
}
