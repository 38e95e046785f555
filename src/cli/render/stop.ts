/**
 * How a run ended, said once, and its exit status: 0 for a plan persisted at the gate, a finished
 * build or a cancellation the person chose; 1 when no valid plan came, the build stopped, or the
 * model could not be reached (the engine's message already names the base URL and the model).
 * Failures go to stderr; the person's next step (the resume command) is always spelled out.
 */
import type { LifecycleState, SessionStop } from '../../core/api/sessions';
import { clause } from '../../node/messageText';
import type { Printer } from './printer';
import type { Redactor } from './redact';
import type { Style } from './style';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
/** Conventional status of a run the person interrupted with Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

export interface StopContext {
  readonly id: string;
  readonly ui: Printer;
  readonly stderr: NodeJS.WritableStream;
  readonly style: Style;
  readonly redact: Redactor;
  readonly shown: (file: string) => string;
}

export const resumeCommand = (id: string) => `planwise resume ${id}`;

function fail(ctx: StopContext, sentence: string): number {
  ctx.ui.breakLine(); // streamed text may have stopped mid-line: never "Done.planwise: …"
  ctx.stderr.write(`planwise: ${ctx.redact(sentence)}\n`);
  return EXIT_FAILED;
}

/** The gate is open and nobody decided here: print the plan's path and how to decide later. */
export function reportPending(ctx: StopContext, planFile: string): number {
  ctx.ui.line(`Plan awaiting approval: ${planFile}`);
  ctx.ui.line(ctx.style.dim(`Decide later with: ${resumeCommand(ctx.id)}`));
  return EXIT_OK;
}

export function reportStop(ctx: StopContext, stop: SessionStop, state: LifecycleState, planFile?: string): number {
  switch (stop.kind) {
    case 'awaiting_approval':
      return reportPending(ctx, stop.planFile);
    case 'completed': {
      for (const w of stop.awaitingChecks ?? []) {
        ctx.ui.line(
          ctx.style.yellow(
            `Step ${w.path} is in progress, awaiting your check: ${w.checks.map((c) => `"${c}"`).join(', ')}`,
          ),
        );
      }
      const left = stop.report && !stop.report.complete ? stop.report.incomplete.length : 0;
      if (left > 0) {
        return fail(
          ctx,
          `The build ended with ${left} step${left === 1 ? '' : 's'} incomplete (session ${ctx.id}): the execution report lists ${left === 1 ? 'it' : 'them'}. Undo the build with: planwise revert ${ctx.id}`,
        );
      }
      ctx.ui.line(ctx.style.green(`Done (session ${ctx.id}).`));
      return EXIT_OK;
    }
    case 'cancelled':
      ctx.ui.line(`Cancelled.${planFile ? ` The plan stays at ${ctx.shown(planFile)}.` : ''}`);
      return EXIT_OK;
    case 'blocked': {
      if (state === 'executing') return fail(ctx, `The build stopped before it finished: ${clause(stop.reason)}.`);
      const hint = stop.resumeId !== undefined ? ` Resume with: ${resumeCommand(stop.resumeId)}` : '';
      return fail(ctx, `No valid plan came: ${clause(stop.reason)}.${hint}`);
    }
    case 'error':
      return fail(ctx, stop.message);
  }
}

/** A resumed session with nothing to decide: what state it is in and what can be done. */
export function reportState(ctx: StopContext, state: LifecycleState, planFile: string | undefined): number {
  const plan = planFile ? ` Plan: ${ctx.shown(planFile)}.` : '';
  const text: Record<LifecycleState, string> = {
    idle: `Session ${ctx.id} has finished; nothing awaits a decision.${plan}`,
    planning: `Session ${ctx.id} is still planning and has no plan awaiting approval. Continue it with: ${resumeCommand(ctx.id)} "your next message"`,
    revising: `Session ${ctx.id} is revising its plan. Continue it with: ${resumeCommand(ctx.id)} "your feedback"`,
    awaiting_approval: `Session ${ctx.id} has a plan awaiting approval.${plan}`,
    executing: `Session ${ctx.id} was building when it stopped; the build cannot be resumed from here.${plan} The tracker in the plan's .tasks.md shows what was done.`,
    cancelled: `Session ${ctx.id} was cancelled.${plan}`,
  };
  ctx.ui.line(text[state]);
  return EXIT_OK;
}
