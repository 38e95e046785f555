/**
 * The engine's `Interviewer` in VS Code: 1–3 questions go to the panel's wizard as one request in
 * the pending table (and to a QuickPick flow when the panel is hidden). Unanswered for 30 minutes
 * counts as Esc: no answer, and the model may ask again later.
 */
import type { InterviewAnswer, InterviewOutcome, InterviewQuestion, Interviewer } from '../../core/api/ports';
import type { PendingRequests } from './pending';
import type { PromptSurface } from './surface';

export const INTERVIEW_TIMEOUT_MS = 30 * 60_000;

export interface InterviewData {
  readonly questions: readonly InterviewQuestion[];
}

export class HostInterviewer implements Interviewer {
  constructor(
    private readonly pending: PendingRequests,
    private readonly surface: PromptSurface,
  ) {}

  async ask(questions: readonly InterviewQuestion[], signal?: AbortSignal): Promise<InterviewOutcome> {
    const data: InterviewData = { questions };
    const { id, promise } = this.pending.open<InterviewOutcome>('interview', {
      timeoutMs: INTERVIEW_TIMEOUT_MS,
      onTimeout: () => ({ kind: 'cancelled' }),
      ...(signal ? { signal } : {}),
      data,
    });
    this.surface.update([
      {
        op: 'interview.set',
        interview: {
          requestId: id,
          questions: questions.map((q) => ({
            id: q.id,
            header: q.header,
            question: q.question,
            options: q.options.map((o) => ({
              label: o.label,
              ...(o.description !== undefined ? { description: o.description } : {}),
              ...(o.recommended !== undefined ? { recommended: o.recommended } : {}),
            })),
            ...(q.allowNote !== undefined ? { allowNote: q.allowNote } : {}),
          })),
        },
      },
    ]);
    if (!this.surface.panelVisible()) this.surface.offerNative(id, { kind: 'interview', questions });
    try {
      return await promise;
    } finally {
      this.surface.update([{ op: 'interview.set', interview: null }]);
    }
  }
}

/**
 * Why `answers` do not fit `questions`, or undefined when they do: every answer names an asked
 * question once, and its choice is one of that question's options.
 */
export function checkAnswers(
  questions: readonly InterviewQuestion[],
  answers: readonly InterviewAnswer[],
): string | undefined {
  const seen = new Set<string>();
  for (const a of answers) {
    const q = questions.find((x) => x.id === a.questionId);
    if (!q) return `answer to unknown question "${a.questionId}"`;
    if (seen.has(a.questionId)) return `two answers to question "${a.questionId}"`;
    seen.add(a.questionId);
    if (!q.options.some((o) => o.label === a.choice)) {
      return `"${a.choice}" is not an option of question "${q.header}"`;
    }
    if (a.note !== undefined && !q.allowNote) return `question "${q.header}" takes no note`;
  }
  return undefined;
}
