/**
 * The person's approvals on the terminal: the plan gate, more tool calls or loop iterations, and
 * build commands the read-only gate did not admit (y/N). In a non-interactive run nothing is
 * asked: limits and commands are denied, and a plan gate is left pending for `planwise resume`.
 *
 * Leaving the gate without an answer (end of input, Ctrl-C) keeps the plan pending: `onDetach`
 * tells the command, which reports how to resume; the session archive already holds the gate.
 */
import type {
  Approver,
  CommandAnswer,
  LimitKind,
  PlanApprovalRequest,
  PlanApprovalResponse,
  ScopeChoice,
  ScopeRequest,
} from '../../core/api/ports';
import { pastTense } from '../../core/api/build';
import { shellQuote } from '../../core/api/gate';
import type { Printer } from '../render/printer';
import type { Style } from '../render/style';
import { approvableCommands, parseGateAnswer, printGate } from './gate';
import type { LineInput } from './lineInput';

/** Granted when the person answers `y` to "allow more?". */
export const DEFAULT_GRANT = 50;

export interface ApproverHooks {
  /** The gate was left without a decision; the plan stays pending. */
  readonly onDetach: (planFile: string) => void;
  /** Display form of a path (workspace-relative). */
  readonly shown: (file: string) => string;
  /** Whether the transcript just printed this plan whole (the gate then does not repeat its steps). */
  readonly planOnScreen?: (planFile: string, revision: number) => boolean;
}

function limitText(kind: LimitKind, used: number, max: number): string {
  return kind === 'session_tool_calls'
    ? `The session has used ${used} of its ${max} tool calls.`
    : `This turn has run ${used} of its ${max} loop iterations.`;
}

class LeftPending extends Error {
  constructor(planFile: string) {
    super(`the plan ${planFile} was left pending at the approval gate`);
  }
}

export class TerminalApprover implements Approver {
  constructor(
    private readonly input: LineInput,
    private readonly printer: Printer,
    private readonly style: Style,
    private readonly hooks: ApproverHooks,
  ) {}

  async approvePlan(request: PlanApprovalRequest): Promise<PlanApprovalResponse> {
    const onScreen = this.hooks.planOnScreen?.(request.planFile, request.card.revision) ?? false;
    printGate(this.printer, this.style, request, this.hooks.shown(request.planFile), onScreen);
    for (;;) {
      const typed = await this.input.ask('Choose 1-3, or type what should change: ');
      if (typed === null) return this.detach(request.planFile);
      const answer = parseGateAnswer(typed);
      if (answer.kind === 'empty') continue;
      if (answer.kind === 'decision') {
        this.printer.line(this.style.dim(`  (understood: ${answer.understood})`));
        const open = request.card.openComments?.length ?? 0;
        const approves = answer.response.decision === 'execute' || answer.response.decision === 'fresh_context';
        if (approves && open > 0) {
          // Asked once, as in the panel: review threads the planner has not yet seen stay open.
          const sure = await this.input.ask(
            `  Approve with ${open} unresolved comment${open === 1 ? '' : 's'}? [y/N] `,
          );
          if (sure === null) return this.detach(request.planFile);
          if (!/^y(es)?$/i.test(sure.trim())) continue;
        }
        const commands = approves ? approvableCommands(request.card) : [];
        if (commands.length > 0) {
          // A separate, explicit choice, no by default: approving the plan alone allows none of them.
          const n = commands.length;
          const also = await this.input.ask(
            `  Also allow the ${n === 1 ? 'verify command' : `${n} verify commands`} marked "will ask" for this build? [y/N] `,
          );
          if (also !== null && /^y(es)?$/i.test(also.trim())) {
            this.printer.line(this.style.dim(`  (allowed for this build: ${commands.join(' · ')})`));
            return { ...answer.response, allowCommands: commands };
          }
          this.printer.line(this.style.dim('  (each will be asked for when it first runs)'));
        }
        return answer.response;
      }
      const feedback = await this.input.ask('What should change in the plan? (Enter goes back to the choices): ');
      if (feedback === null) return this.detach(request.planFile);
      if (feedback.trim() !== '') return { decision: 'revise', feedback: feedback.trim() };
    }
  }

  async grantMore(kind: LimitKind, used: number, max: number): Promise<number> {
    this.printer.line(this.style.bold(`? ${limitText(kind, used, max)}`));
    for (;;) {
      const typed = await this.input.ask(`  Allow more? Type a number, y for ${DEFAULT_GRANT}, or Enter to stop: `);
      const t = (typed ?? '').trim().toLowerCase();
      if (t === '' || t === 'n' || t === 'no') return 0;
      if (t === 'y' || t === 'yes') return DEFAULT_GRANT;
      if (/^\d+$/.test(t)) return Number(t);
      this.printer.line(this.style.yellow(`  '${t}' is not a number, y or n.`));
    }
  }

  /**
   * A build-side command (run_command or a verify command) that needs a yes, shown whole. "a"
   * (always) runs it and allows it for the rest of this run; the CLI writes no settings, so it
   * prints the flag and the setting that allow it next time.
   */
  async approveCommand(command: string, reason: string): Promise<CommandAnswer> {
    this.printer.line(this.style.bold('? The build wants to run a command that needs your approval:'));
    this.printer.line(`    $ ${command}`);
    this.printer.line(this.style.dim(`    (${reason})`));
    const typed = (await this.input.ask('  Run it? [y/N, a = always in this run] ')) ?? '';
    if (/^\s*a(lways)?\s*$/i.test(typed)) {
      this.printer.line(
        this.style.dim(
          `  approved for this run; next time pass --allow-command ${shellQuote(command)}, or add it to planwise.buildCommandAllowList in VS Code`,
        ),
      );
      return { always: command.trim() };
    }
    const yes = /^\s*y(es)?\s*$/i.test(typed);
    this.printer.line(this.style.dim(yes ? '  approved' : '  not run'));
    return yes;
  }

  /** A build write outside the approved plan's scope: allow this file, allow for the build, or stop and replan. */
  async approveScope(request: ScopeRequest): Promise<ScopeChoice> {
    const step = request.step !== undefined ? ` (step ${request.step})` : '';
    this.printer.line(
      this.style.bold(
        request.command !== undefined
          ? `? The build command \`${request.command}\` ${pastTense(request.action)} ${request.path}${step}, outside the plan's scope (3 undoes it):`
          : `? The build agent wants to ${request.action} ${request.path}${step}, outside the plan's scope:`,
      ),
    );
    this.printer.line(this.style.dim(`    plan scope: ${request.scope.join(', ') || '(no files)'}`));
    for (;;) {
      const typed = await this.input.ask(
        '  1) allow this file  2) allow for the rest of this build  3) stop and replan: ',
      );
      const t = (typed ?? '').trim().toLowerCase();
      const choice: ScopeChoice | undefined =
        t === '1' ? 'allow_file' : t === '2' ? 'allow_build' : t === '3' || t === '' ? 'replan' : undefined;
      if (choice) {
        const said = {
          allow_file: 'allowed for this file',
          allow_build: 'allowed for the rest of this build',
          replan: 'stopping to replan',
        };
        this.printer.line(this.style.dim(`  ${said[choice]}`));
        return choice;
      }
      this.printer.line(this.style.yellow(`  '${t}' is not 1, 2 or 3.`));
    }
  }

  /** A check of a step the build agent finished: the person says whether it holds. */
  async signOffCheck(step: string, check: string): Promise<boolean> {
    this.printer.line(this.style.bold(`? Step ${step} needs your check: ${check}`));
    const typed = await this.input.ask('  Does it hold? [y/N] ');
    const yes = /^\s*y(es)?\s*$/i.test(typed ?? '');
    this.printer.line(this.style.dim(yes ? '  checked' : '  left awaiting your check'));
    return yes;
  }

  private detach(planFile: string): Promise<never> {
    this.hooks.onDetach(planFile);
    return Promise.reject(new LeftPending(planFile));
  }
}

export class NonInteractiveApprover implements Approver {
  constructor(
    private readonly printer: Printer,
    private readonly style: Style,
    private readonly hooks: ApproverHooks,
  ) {}

  /** Not reached in practice (a non-interactive session stops at the gate); leaves the plan pending. */
  async approvePlan(request: PlanApprovalRequest): Promise<PlanApprovalResponse> {
    this.hooks.onDetach(request.planFile);
    throw new LeftPending(request.planFile);
  }

  async grantMore(kind: LimitKind, used: number, max: number): Promise<number> {
    this.printer.line(
      this.style.yellow(`! ${limitText(kind, used, max)} No more granted: this run is non-interactive.`),
    );
    return 0;
  }

  /** Not reached (nobody is asked in a non-interactive run); says no. */
  async approveCommand(command: string): Promise<boolean> {
    this.commandRefused(command);
    return false;
  }

  /** A command that needed a yes did not run: says so, and how to allow it next time. */
  commandRefused(command: string): void {
    this.printer.line(
      this.style.yellow(
        `! Not run (non-interactive): $ ${command} — allow it with --allow-command ${shellQuote(command)} or the setting planwise.buildCommandAllowList, or run interactively.`,
      ),
    );
  }
}

/**
 * `--approve revise`. As a standing setting it would send every revised plan back for another
 * revision without end, so it asks for exactly one revision: the first gate is answered with
 * `revise`, and later gates behave as without the flag (asked on a terminal, left pending otherwise).
 */
export class ReviseOnce {
  private used = false;

  constructor(
    private readonly printer: Printer,
    private readonly style: Style,
  ) {}

  /** True the first time only; says what it decided. */
  take(): boolean {
    if (this.used) return false;
    this.used = true;
    this.printer.line(this.style.dim('  (--approve revise: asking the planner for one revision)'));
    return true;
  }

  wrap(inner: Approver): Approver {
    return {
      approvePlan: async (request, signal) =>
        this.take() ? { decision: 'revise' } : inner.approvePlan(request, signal),
      grantMore: (kind, used, max, signal) => inner.grantMore(kind, used, max, signal),
      approveCommand: (command, reason, signal) => inner.approveCommand(command, reason, signal),
      ...(inner.commandRefused
        ? { commandRefused: (command: string, reason: string) => inner.commandRefused!(command, reason) }
        : {}),
      ...(inner.signOffCheck
        ? {
            signOffCheck: (step: string, check: string, signal?: AbortSignal) =>
              inner.signOffCheck!(step, check, signal),
          }
        : {}),
    };
  }
}
