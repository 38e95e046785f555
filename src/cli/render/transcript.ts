/**
 * The readable terminal transcript of a session: assistant text streamed as it arrives, thinking
 * dimmed, tool calls with their gate verdicts, notices, plans (and what a revision changed), the
 * budget line, the tracker tree and the approval decisions. One `handle` per bus event.
 */
import type { BudgetSnapshot, ItemPayload, ThreadEvent } from '../../core/api/sessions';
import { budgetLine } from './budget';
import { printPlan, type PlanShown, type PlansOnScreen } from './plan';
import type { Printer } from './printer';
import type { Style } from './style';
import { changeNoteLine, failedResultLine, toolCallLine } from './toolCall';
import { progressText, trackerLines, trackerRows } from './tracker';
import { compactedLine, retryLine } from './modelLines';
import { instructionsLine } from './instructionsLine';

const DECISION_TEXT: Readonly<Record<string, string>> = {
  execute: 'implement the plan in this context',
  fresh_context: 'clear the context and implement the plan',
  revise: 'stay in Plan mode and revise',
  cancel: 'cancel the plan',
};

export class TranscriptRenderer {
  private streaming: 'text' | 'thinking' | undefined;
  private budget: BudgetSnapshot | undefined;
  private lastBudget = '';
  /** Whitespace held back while streaming, written only when more text follows. */
  private heldWhitespace = '';
  /** Calls that have started and not yet printed: a call's line is printed once its result is in. */
  private readonly openCalls = new Map<string, ItemPayload>();
  /** The tracker is shown while building; in planning the plan's steps already say it. */
  private executing = false;
  private tracker: Extract<ThreadEvent, { type: 'tracker.updated' }> | undefined;
  /** Each step's line as last printed, by its path; undefined until the tree is first printed in a build. */
  private trackerShown: Map<string, string> | undefined;
  private planStreamingTurn: string | undefined;
  private previousPlan: PlanShown | undefined;

  constructor(
    private readonly printer: Printer,
    private readonly style: Style,
    /** Display form of a path (workspace-relative). */
    private readonly shown: (file: string) => string,
    /** Told of each plan printed whole (the gate then does not print its steps again). */
    private readonly plansOnScreen?: PlansOnScreen,
  ) {}

  handle(e: ThreadEvent): void {
    switch (e.type) {
      case 'thread.started':
        this.line(this.style.bold(`● ${e.mode === 'build' ? 'Building' : 'Planning'}${e.task ? `: ${e.task}` : ''}`));
        break;
      case 'item.started':
        // A refused call is printed at once (nothing will run); another once it has run, so a
        // question the call asks (a command's approval) comes before its line.
        if (e.item.kind === 'tool_call' && e.item.tool) {
          if (e.item.verdict?.allowed === false) this.line(toolCallLine(e.item, this.style));
          else this.openCalls.set(e.item.tool.callId, e.item);
        }
        break;
      case 'item.updated':
        this.updated(e.item);
        break;
      case 'item.completed':
        this.completed(e.item);
        break;
      case 'plan.delta':
        if (this.planStreamingTurn !== e.turn_id) {
          this.planStreamingTurn = e.turn_id;
          this.line(this.style.dim('  (writing the plan…)'));
        }
        break;
      case 'plan.approval.requested':
        // The gate prompt (or the final report) shows the plan's path; only the unusual is said here.
        if (e.proposed_during_execution)
          this.line(this.style.yellow('! A revised plan was proposed during execution.'));
        break;
      case 'plan.approval.resolved': {
        const who = e.automatic ? 'by setting' : 'by you';
        const text = DECISION_TEXT[e.decision] ?? e.decision;
        this.line(`${this.style.cyan('→')} Decision (${who}): ${text}${e.feedback ? ` — “${e.feedback}”` : ''}`);
        break;
      }
      case 'context.reset':
        this.line(
          this.style.cyan(
            `↺ Context cleared for execution (was ${e.previous_context_usage_percent}% used); plan kept.`,
          ),
        );
        break;
      case 'session_tool_limit_increased':
        this.line(this.style.cyan(`+ ${e.granted} more tool calls granted (now ${e.max}).`));
        break;
      case 'tool_loop_limit_increased':
        this.line(this.style.cyan(`+ ${e.granted} more loop iterations granted (now ${e.max}).`));
        break;
      case 'budget_exhausted':
        this.line(this.style.yellow(`! Budget exhausted: ${e.budget.replace(/_/g, ' ')} ${e.used}/${e.max}`));
        this.printBudget();
        break;
      case 'budget.updated':
        this.budget = e.budget;
        break;
      case 'turn.completed':
        this.printBudget();
        break;
      case 'tracker.updated':
        this.tracker = e;
        if (this.executing) this.printTracker();
        break;
      case 'state.changed':
        // A build that starts again (after a replan or a fresh context) shows the whole tree again.
        if (e.state === 'executing' && !this.executing) this.trackerShown = undefined;
        this.executing = e.state === 'executing';
        break;
      case 'turn.started':
        if (this.executing) this.printTracker();
        break;
      case 'progress':
        this.line(this.style.dim(`… ${e.message}`));
        break;
      case 'thread.completed':
        this.line(this.style.green('✓ Build finished.'));
        break;
      case 'model.retrying':
        this.line(this.style.yellow(`… ${retryLine(e.wait_ms, e.attempt, e.max_attempts, e.reason)}`));
        break;
      case 'context.compacted':
        this.line(this.style.dim(`↺ ${compactedLine(e)}`));
        break;
      case 'instructions.loaded':
      case 'instructions.added':
        this.line(this.style.dim(instructionsLine(e)));
        break;
      case 'model.waiting':
        // Said once when the stream falls silent; the next output (or the stop) ends it.
        if (e.waiting) {
          this.line(this.style.dim(`… Waiting for the model · ${Math.round(e.silent_ms / 1000)} s (Ctrl-C stops)`));
        }
        break;
      case 'run.stopped':
        this.line(this.style.dim(e.what === 'build' ? '■ Build stopped.' : '■ Stopped.'));
        break;
      case 'plan.execution.completed':
        if (e.revises !== undefined) {
          this.line(this.style.dim(`Report updated: ${e.report.summary} (${this.shown(e.report_file)})`));
          break;
        }
        // The closing audit, as written next to the plan.
        this.line('');
        for (const line of e.markdown.trimEnd().split('\n')) this.line(line);
        this.line(this.style.dim(`(written to ${this.shown(e.report_file)})`));
        break;
      // The command reports a failed run once, when it ends (see stop.ts); state changes, turn
      // boundaries and usage have no line of their own.
      case 'error':
        break;
    }
  }

  private line(text: string | undefined): void {
    if (text === undefined) return;
    this.endStream();
    this.printer.line(text);
  }

  /** The whole tree the first time; after that only the steps whose line changed, with the progress. */
  private printTracker(): void {
    if (!this.tracker) return;
    const rows = trackerRows(this.tracker, this.style);
    if (this.trackerShown === undefined) {
      for (const l of trackerLines(this.tracker, this.style)) this.line(l);
    } else {
      const changed = rows.filter((r) => this.trackerShown!.get(r.path) !== r.line);
      const progress = this.style.dim(` (${progressText(this.tracker)})`);
      changed.forEach((r, i) => this.line(`  ${r.bare}${i === changed.length - 1 ? progress : ''}`));
    }
    this.trackerShown = new Map(rows.map((r) => [r.path, r.line]));
  }

  /** The budget progress line, once per turn (and when a budget runs out), when it changed. */
  private printBudget(): void {
    if (!this.budget) return;
    const text = budgetLine(this.budget);
    if (text === this.lastBudget) return;
    this.lastBudget = text;
    this.line(this.style.dim(`  [${text}]`));
  }

  private endStream(): void {
    this.heldWhitespace = '';
    if (this.streaming !== undefined) {
      this.printer.breakLine();
      this.streaming = undefined;
    }
  }

  private updated(item: ItemPayload): void {
    if (item.delta === undefined || item.delta === '') return;
    if (item.kind === 'assistant_text') {
      // Blank lines around hidden plan markup would show as gaps: whitespace waits for text.
      if (item.delta.trim() === '') {
        if (this.streaming === 'text') this.heldWhitespace += item.delta;
        return;
      }
      let delta = item.delta;
      if (this.streaming !== 'text') {
        this.endStream();
        this.streaming = 'text';
        delta = delta.trimStart();
      }
      this.printer.write(this.heldWhitespace + delta);
      this.heldWhitespace = '';
    } else if (item.kind === 'reasoning') {
      if (this.streaming !== 'thinking') {
        this.endStream();
        this.streaming = 'thinking';
        this.printer.write(this.style.dim('thinking: '));
      }
      this.printer.write(this.style.dim(item.delta));
    }
  }

  private completed(item: ItemPayload): void {
    switch (item.kind) {
      case 'assistant_text':
      case 'reasoning':
        this.endStream();
        break;
      case 'tool_result': {
        const call = item.result ? this.openCalls.get(item.result.callId) : undefined;
        if (!call || !item.result) break;
        this.openCalls.delete(item.result.callId);
        if (item.result.outcome === 'refused') {
          // Refused inside the call (the person said no, or the build's policy): it did not run.
          const reason = item.result.preview.split('\n').find((l) => l.trim() !== '') ?? 'refused';
          this.line(toolCallLine({ ...call, verdict: { allowed: false, reason } }, this.style));
          break;
        }
        this.line(toolCallLine(call, this.style, item.result.ok, item.result));
        this.line(changeNoteLine(item, this.style));
        this.line(failedResultLine(item, this.style));
        break;
      }
      case 'notice': {
        const level = item.level ?? 'info';
        const mark =
          level === 'error' ? this.style.red('✗') : level === 'warning' ? this.style.yellow('!') : this.style.cyan('ℹ');
        this.line(`${mark} ${item.text ?? ''}`);
        break;
      }
      case 'plan':
        if (item.plan) {
          this.endStream();
          const plan = { file: item.plan.file, markdown: item.plan.markdown, revision: item.plan.revision };
          const printed = printPlan(this.printer, this.style, plan, this.shown(plan.file), this.previousPlan);
          if (printed === 'whole') this.plansOnScreen?.note(plan.file, plan.revision);
          this.previousPlan = plan;
        }
        break;
      case 'interview':
        this.interview(item);
        break;
      case 'user_message':
      case 'tool_call':
        break;
    }
  }

  private interview(item: ItemPayload): void {
    const iv = item.interview;
    if (!iv) return;
    if (iv.outcome === 'denied') {
      const n = iv.questions.length;
      this.line(this.style.yellow(`! ${n} question${n === 1 ? '' : 's'} not asked: this run is non-interactive.`));
      for (const q of iv.questions) this.line(this.style.dim(`    ${q.header}: ${q.question}`));
    } else if (iv.outcome === 'cancelled') {
      this.line(this.style.yellow('! Questions skipped; the planner continues without the answers.'));
    } else if (iv.answers) {
      for (const q of iv.questions) {
        const a = iv.answers.find((x) => x.questionId === q.id);
        if (a) this.line(`${this.style.cyan('✓')} ${q.header}: ${a.choice}${a.note ? ` — ${a.note}` : ''}`);
        else this.line(this.style.dim(`- ${q.header}: skipped`));
      }
    }
  }
}
