/**
 * The native (QuickPick / modal) forms of the panel's prompts, as data. Keyboard and screen-reader
 * users get the same choices as the panel, in the same words.
 */
import type { ApprovalDecision, InterviewAnswer, InterviewQuestion, LimitKind } from '../../core/api/ports';

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
}

/** The gate's three choices (the seed's wording) and cancel. */
export function approvalItems(contextPercent: number): PickItem<ApprovalDecision>[] {
  const fresh = contextPercent >= 50;
  return [
    {
      label: '$(check) Yes, implement this plan',
      description: fresh ? '' : 'recommended',
      detail: 'Build in this conversation, keeping everything learned while planning.',
      value: 'execute',
    },
    {
      label: '$(clear-all) Yes, clear context and implement',
      description: fresh ? `recommended: the context is ${Math.round(contextPercent)}% full` : '',
      detail: 'Build in a fresh context that holds only the approved plan and its tracker.',
      value: 'fresh_context',
    },
    {
      label: '$(edit) No, stay in Plan mode',
      detail: 'Keep planning; say what should change.',
      value: 'revise',
    },
    { label: '$(close) Cancel the plan', detail: 'Stop planning; nothing is built.', value: 'cancel' },
  ];
}

export function questionItems(q: InterviewQuestion): PickItem<string>[] {
  return q.options.map((o) => ({
    label: o.recommended ? `$(star-full) ${o.label}` : o.label,
    ...(o.recommended ? { description: 'recommended' } : {}),
    ...(o.description ? { detail: o.description } : {}),
    value: o.label,
  }));
}

export function questionTitle(q: InterviewQuestion, index: number, total: number): string {
  return total > 1 ? `${q.header} (${index + 1}/${total})` : q.header;
}

/** One answer per question in order; undefined choice = the person pressed Esc. */
export function collectAnswers(
  questions: readonly InterviewQuestion[],
  picks: readonly { choice: string | undefined; note?: string }[],
): { kind: 'answered'; answers: InterviewAnswer[] } | { kind: 'cancelled' } {
  if (picks.length < questions.length || picks.some((p) => p.choice === undefined)) return { kind: 'cancelled' };
  return {
    kind: 'answered',
    answers: questions.map((q, i) => {
      const p = picks[i]!;
      const note = p.note?.trim();
      return { questionId: q.id, choice: p.choice!, ...(note && q.allowNote ? { note } : {}) };
    }),
  };
}

export function grantMessage(kind: LimitKind, used: number, max: number, amount: number): string {
  const what = kind === 'session_tool_calls' ? 'tool calls for this session' : 'model round trips for this turn';
  return `Planwise used all ${max} ${what} (${used}/${max}). Grant ${amount} more?`;
}
