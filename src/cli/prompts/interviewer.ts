/**
 * Interview questions on the terminal: each question with its numbered options (the recommended
 * one marked), answered by number or by the option's label, then an optional note. Enter takes the
 * recommended option; `skip` (or Esc on a terminal) skips that question alone. Ctrl-C or the end of
 * input stops asking: the answers given so far are kept, and with none the questions count as
 * closed (the model may ask again). In a non-interactive run every question is denied, permanently
 * for the session.
 */
import type { InterviewOutcome, InterviewQuestion, Interviewer, InterviewAnswer } from '../../core/api/ports';
import type { Printer } from '../render/printer';
import type { Style } from '../render/style';
import { ESCAPE, type LineInput } from './lineInput';

export const NON_INTERACTIVE_DENIAL = 'no one can answer in a non-interactive run';

export const nonInteractiveInterviewer: Interviewer = {
  ask: async () => ({ kind: 'denied', reason: NON_INTERACTIVE_DENIAL }),
};

/** The option a typed answer picks: its number, or its label (case-insensitive). */
export function pickOption(question: InterviewQuestion, answer: string): number | undefined {
  const text = answer.trim().replace(/[.)]$/, '');
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= 1 && n <= question.options.length ? n - 1 : undefined;
  }
  const lower = answer.trim().toLowerCase();
  const i = question.options.findIndex((o) => o.label.trim().toLowerCase() === lower);
  return i >= 0 ? i : undefined;
}

export class TerminalInterviewer implements Interviewer {
  constructor(
    private readonly input: LineInput,
    private readonly printer: Printer,
    private readonly style: Style,
  ) {}

  async ask(questions: readonly InterviewQuestion[], signal?: AbortSignal): Promise<InterviewOutcome> {
    const answers: InterviewAnswer[] = [];
    for (const [k, q] of questions.entries()) {
      if (signal?.aborted) return { kind: 'cancelled' };
      const count = questions.length > 1 ? ` (${k + 1} of ${questions.length})` : '';
      this.printer.line(this.style.bold(`? ${q.header}${count}`));
      this.printer.line(`  ${q.question}`);
      q.options.forEach((o, i) => {
        const rec = o.recommended ? this.style.green(' (recommended)') : '';
        const desc = o.description ? this.style.dim(` — ${o.description}`) : '';
        this.printer.line(`    ${i + 1}) ${o.label}${rec}${desc}`);
      });
      const choice = await this.choose(q);
      if (choice === 'stop') return stopped(answers);
      if (choice === 'skip') {
        this.printer.line(this.style.dim('  Skipped.'));
        continue;
      }
      const label = q.options[choice]!.label;
      let note: string | undefined;
      if (q.allowNote) {
        const typed = await this.input.ask('  Note (optional, Enter for none): ');
        if (typed === null) return stopped([...answers, { questionId: q.id, choice: label }]);
        note = typed.trim() || undefined;
      }
      answers.push({ questionId: q.id, choice: label, ...(note !== undefined ? { note } : {}) });
    }
    return answers.length > 0 ? { kind: 'answered', answers } : { kind: 'cancelled' };
  }

  /** The chosen option's index; 'skip' for this question, 'stop' at Ctrl-C or the end of input. */
  private async choose(q: InterviewQuestion): Promise<number | 'skip' | 'stop'> {
    const n = q.options.length;
    const recommended = q.options.findIndex((o) => o.recommended === true);
    const enter = recommended >= 0 ? `Enter for ${recommended + 1}, ` : '';
    const skipKey = this.input.takesEscape ? 'skip or Esc' : 'skip';
    for (;;) {
      const typed = await this.input.ask(`  Choose 1-${n} (${enter}${skipKey} to skip this question): `, {
        escape: true,
      });
      if (typed === null) return 'stop';
      if (typed === ESCAPE || /^skip$/i.test(typed.trim())) return 'skip';
      if (typed.trim() === '' && recommended >= 0) return recommended;
      const picked = typed.trim() === '' ? undefined : pickOption(q, typed);
      if (picked !== undefined) return picked;
      const what = typed.trim() === '' ? 'No option is recommended' : `'${typed.trim()}' is not an option`;
      this.printer.line(this.style.yellow(`  ${what}: type a number from 1 to ${n}, or skip.`));
    }
  }
}

/** The outcome when the person stops answering: what they answered so far, or closed questions. */
function stopped(answers: readonly InterviewAnswer[]): InterviewOutcome {
  return answers.length > 0 ? { kind: 'answered', answers } : { kind: 'cancelled' };
}
