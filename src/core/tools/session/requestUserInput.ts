/**
 * `request_user_input`: 1–3 multiple-choice questions through the `Interviewer` port. The answer
 * comes back as this call's result, so the model continues in the same turn. In a run where no
 * one can answer, the first ask records a permanent denial and every later call returns at once.
 */
import * as z from 'zod';
import type { InterviewOutcome, InterviewQuestion } from '../../lifecycle/ports';
import { failure, resultOf } from '../result';
import type { ToolDefinition, ToolResult } from '../types';
import { agentContextOf, type AgentToolContext } from './context';
import { count } from '../describe';

export const HEADER_MAX_CHARS = 30;

export const QUESTIONS_UNAVAILABLE =
  'questions are unavailable in this session; decide with reasonable defaults and state them under Assumptions';

const optionSchema = z.object({
  label: z.string().trim().min(1),
  description: z.string().optional(),
  recommended: z.boolean().optional(),
});

const questionSchema = z
  .object({
    id: z.string().trim().min(1).optional(),
    header: z.string().trim().min(1).max(HEADER_MAX_CHARS),
    question: z.string().trim().min(1),
    options: z.array(optionSchema).min(2).max(4),
    allow_note: z.boolean().optional().describe('Let the person add a free-form note'),
  })
  .refine((q) => q.options.filter((o) => o.recommended).length <= 1, {
    message: 'mark at most one option as recommended',
    path: ['options'],
  })
  .refine((q) => new Set(q.options.map((o) => o.label.toLowerCase())).size === q.options.length, {
    message: 'option labels must differ from each other',
    path: ['options'],
  });

const schema = z
  .object({ questions: z.array(questionSchema).min(1).max(3) })
  .refine((a) => distinct(a.questions.flatMap((q) => (q.id === undefined ? [] : [q.id]))), {
    message: 'question ids must differ from each other',
    path: ['questions'],
  });

export type RequestUserInputArgs = z.infer<typeof schema>;

function distinct(values: readonly string[]): boolean {
  return new Set(values).size === values.length;
}

/** The port's questions: every question gets an id (`q1`, `q2`… where the model gave none). */
export function toInterviewQuestions(args: RequestUserInputArgs): InterviewQuestion[] {
  const taken = new Set(args.questions.flatMap((q) => (q.id === undefined ? [] : [q.id])));
  let next = 1;
  const freshId = () => {
    while (taken.has(`q${next}`)) next++;
    taken.add(`q${next}`);
    return `q${next}`;
  };
  return args.questions.map((q) => ({
    id: q.id ?? freshId(),
    header: q.header,
    question: q.question,
    options: q.options.map((o) => ({
      label: o.label,
      ...(o.description !== undefined ? { description: o.description } : {}),
      ...(o.recommended ? { recommended: true } : {}),
    })),
    ...(q.allow_note ? { allowNote: true } : {}),
  }));
}

function unavailable(reason: string | undefined): ToolResult {
  return failure(`request_user_input: ${QUESTIONS_UNAVAILABLE}${reason ? ` (reason: ${reason})` : ''}`);
}

function describeAnswers(questions: readonly InterviewQuestion[], outcome: InterviewOutcome): string {
  if (outcome.kind !== 'answered') return '';
  const lines = questions.map((q) => {
    const answer = outcome.answers.find((a) => a.questionId === q.id);
    if (!answer) return `- ${q.header}: (not answered)`;
    const note = answer.note?.trim();
    return `- ${q.header}: ${answer.choice}${note ? ` — ${note}` : ''}`;
  });
  return `The person answered:\n${lines.join('\n')}\nContinue with these choices.`;
}

function deny(ctx: AgentToolContext, questions: readonly InterviewQuestion[], reason: string): ToolResult {
  const state = ctx.interviewState!;
  state.denied = true;
  state.deniedReason = reason;
  ctx.onInterview?.({ questions, outcome: { kind: 'denied', reason } });
  return unavailable(reason);
}

export const requestUserInputTool: ToolDefinition<RequestUserInputArgs> = {
  name: 'request_user_input',
  description:
    'Ask the person 1-3 multiple-choice questions when a decision materially changes the plan. Answers return in this turn.',
  kind: 'interview',
  schema,
  describe(args) {
    const n = Array.isArray(args['questions']) ? args['questions'].length : 0;
    return { title: `Asked you ${count(n, 'question')}`, subject: count(n, 'question') };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'request_user_input', ['interviewState', 'interactive']);
    const state = ctx.interviewState!;
    if (state.denied) return unavailable(state.deniedReason);
    const questions = toInterviewQuestions(args);
    if (!ctx.interactive) return deny(ctx, questions, 'no one can answer in a non-interactive run');
    const { interviewer } = agentContextOf(toolCtx, 'request_user_input', ['interviewer']);
    const outcome = await interviewer!.ask(questions, ctx.signal);
    if (outcome.kind === 'denied') return deny(ctx, questions, outcome.reason);
    ctx.onInterview?.({ questions, outcome });
    if (outcome.kind === 'cancelled') {
      return resultOf(
        ctx,
        'The person closed the questions without answering, so no answer was given. ' +
          'Continue without it; you may ask again later if it still matters.',
      );
    }
    return resultOf(ctx, describeAnswers(questions, outcome));
  },
};
