/**
 * The native forms of the panel's prompts: notifications that offer them while the panel is
 * hidden, QuickPick flows for questions and the gate, modal dialogs for budgets and commands.
 */
import * as vscode from 'vscode';
import type {
  ApprovalDecision,
  InterviewOutcome,
  InterviewQuestion,
  ScopeChoice,
  ScopeRequest,
} from '../../core/api/ports';
import type { GateCardInfo } from '../../core/api/sessions';
import { pastTense } from '../../core/api/build';
import { FOCUS_PANEL_COMMAND } from '../ids';
import { GRANT_AMOUNT, type ApprovalData } from './hostApprover';
import type { InterviewData } from './hostInterviewer';
import { confirmApproval, openCommentCount, runNativeGate, type NativeGateUi } from './nativeGate';
import { collectAnswers, grantMessage, questionItems, questionTitle } from './nativeModel';
import type { PendingRequests } from './pending';
import type { PromptSurface } from './surface';
import { COMMAND_CHOICE_LABEL, type CommandQuestionUi } from './commandQuestion';

type Offer = Parameters<PromptSurface['offerNative']>[1];

export class NativePrompts {
  /** Requests whose "Approve with N unresolved comments?" the person already answered yes. */
  private readonly confirmed = new Set<string>();

  constructor(
    private readonly pending: PendingRequests,
    /** Decisions go through the controller, which also handles gates it opened itself. */
    private readonly decide: (
      decision: ApprovalDecision,
      feedback: string | undefined,
      requestId?: string,
      allowCommands?: readonly string[],
    ) => Promise<boolean>,
  ) {}

  /** A non-modal notification with the native flow and "Open Panel". */
  offer(id: string, prompt: Offer): void {
    const open = 'Open Panel';
    const text =
      prompt.kind === 'approval'
        ? [
            `Planwise: the plan "${prompt.request.card.title}" is ready${openNote(prompt.request.card)}. Ready to code?`,
            'Decide…',
          ]
        : prompt.kind === 'interview'
          ? [
              `Planwise has ${prompt.questions.length === 1 ? 'a question' : `${prompt.questions.length} questions`} before planning on.`,
              'Answer…',
            ]
          : prompt.kind === 'grantMore'
            ? [grantMessage(prompt.limit, prompt.used, prompt.max, GRANT_AMOUNT), 'Decide…']
            : [
                `Planwise proposes to enter the planning workflow${prompt.reason ? `: ${prompt.reason}` : ''}.`,
                'Decide…',
              ];
    void vscode.window.showInformationMessage(text[0]!, text[1]!, open).then(async (choice) => {
      if (choice === open) await vscode.commands.executeCommand(FOCUS_PANEL_COMMAND);
      else if (choice) await this.run(id);
    });
  }

  /** Runs the native flow for pending request `id` (or does nothing when it was answered meanwhile). */
  async run(id: string): Promise<void> {
    const entry = this.pending.get(id);
    if (!entry) return;
    switch (entry.kind) {
      case 'approval':
        return this.approval((entry.data as ApprovalData).request.card, id);
      case 'interview':
        return this.interview(id, (entry.data as InterviewData).questions);
      case 'grantMore': {
        const d = entry.data as { kind: 'session_tool_calls' | 'tool_loop'; used: number; max: number };
        const grant = `Grant ${GRANT_AMOUNT} More`;
        const choice = await vscode.window.showWarningMessage(
          grantMessage(d.kind, d.used, d.max, GRANT_AMOUNT),
          { modal: true },
          grant,
        );
        this.pending.resolve(id, 'grantMore', choice === grant);
        return;
      }
      case 'enterPlanning': {
        const d = entry.data as { reason?: string };
        const yes = 'Enter Planning';
        const choice = await vscode.window.showInformationMessage(
          'Enter the planning workflow?',
          { modal: true, detail: d.reason ?? 'The build agent proposes to plan before changing more.' },
          yes,
        );
        this.pending.resolve(id, 'enterPlanning', choice === yes);
        return;
      }
    }
  }

  /**
   * The gate as a QuickPick for pending request `id`; approving with open review comments asks
   * once (`runNativeGate`), "stay" asks for feedback.
   */
  async approval(card: GateCardInfo, id: string): Promise<void> {
    const answer = await runNativeGate(card, vscodeGateUi, this.confirmed.has(id));
    if (!answer) return;
    if (answer.confirmed) this.confirmed.add(id);
    if (!(await this.decide(answer.decision, answer.feedback, id, answer.allowCommands))) {
      void vscode.window.showWarningMessage('Planwise: no plan is waiting for a decision any more.');
    }
  }

  /**
   * Before a palette or CodeLens approval of pending request `id`: the one "Approve with N
   * unresolved comments?" question, unless the person already confirmed this request.
   */
  async confirmApproval(id: string): Promise<boolean> {
    const entry = this.pending.get(id);
    if (!entry || entry.kind !== 'approval') return true;
    const ok = await confirmApproval((entry.data as ApprovalData).request.card, vscodeGateUi, this.confirmed.has(id));
    if (ok) this.confirmed.add(id);
    return ok;
  }

  async interview(id: string, questions: readonly InterviewQuestion[]): Promise<void> {
    const picks: { choice: string | undefined; note?: string }[] = [];
    for (const [i, q] of questions.entries()) {
      const item = await vscode.window.showQuickPick(questionItems(q), {
        title: questionTitle(q, i, questions.length),
        placeHolder: q.question,
        ignoreFocusOut: true,
      });
      if (!item) break;
      let note: string | undefined;
      if (q.allowNote) {
        note = await vscode.window.showInputBox({
          title: questionTitle(q, i, questions.length),
          prompt: 'Add a note for the model (optional)',
          ignoreFocusOut: true,
        });
      }
      picks.push({ choice: item.value, ...(note ? { note } : {}) });
    }
    const outcome: InterviewOutcome = collectAnswers(questions, picks);
    if (!this.pending.resolve(id, 'interview', outcome)) {
      void vscode.window.showWarningMessage('Planwise: those questions are no longer waiting for an answer.');
    }
  }

  async confirmScope(request: ScopeRequest): Promise<ScopeChoice> {
    const file = 'Allow This File';
    const build = 'Allow for This Build';
    const replan = 'Stop and Replan';
    const step = request.step !== undefined ? ` during step ${request.step}` : '';
    const files = `The plan's files: ${request.scope.join(', ') || '(none)'}.`;
    const shell = request.command !== undefined;
    const choice = await vscode.window.showWarningMessage(
      shell
        ? `Planwise's build command \`${request.command}\` ${pastTense(request.action)} ${request.path}, outside the approved plan${step}.`
        : `Planwise's build wants to ${request.action} ${request.path}, outside the approved plan${step}.`,
      {
        modal: true,
        detail: shell
          ? `${files}\n\nAllow keeps the change. Stop and Replan undoes it and returns to planning with this reason.`
          : `${files}\n\nAllow it, or stop the build and return to planning with this reason.`,
      },
      file,
      build,
      replan,
    );
    return choice === file ? 'allow_file' : choice === build ? 'allow_build' : 'replan';
  }
}

/**
 * The command question's UI calls in VS Code (`commandQuestion.ts`): a modal whose "Don't Run" is
 * its close affordance (Esc answers it, and VS Code adds no Cancel), then an input box.
 */
export const vscodeCommandUi: CommandQuestionUi = {
  choose: async (message, detail, choices) => {
    const items = choices.map((choice) => ({
      title: COMMAND_CHOICE_LABEL[choice],
      choice,
      isCloseAffordance: choice === 'refuse',
    }));
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, ...items))?.choice;
  },
  entry: async (suggested, validate) =>
    await vscode.window.showInputBox({
      title: 'Planwise: Always Allow',
      prompt:
        'Add to planwise.buildCommandAllowList (this workspace). End with " *" to allow any arguments after these words.',
      value: suggested,
      ignoreFocusOut: true,
      validateInput: (v) => validate(v) ?? null,
    }),
};

function openNote(card: GateCardInfo): string {
  const open = openCommentCount(card);
  return open > 0 ? ` with ${open} open comment${open === 1 ? '' : 's'}` : '';
}

/** The native gate's UI calls in VS Code. */
const vscodeGateUi: NativeGateUi = {
  pick: async (items, title) =>
    (
      await vscode.window.showQuickPick(
        items.map((i) => ({ ...i, picked: false })),
        { title, placeHolder: 'Choose what happens with the plan', ignoreFocusOut: true },
      )
    )?.value,
  confirm: async (message, detail) => {
    const yes = 'Approve Anyway';
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, yes)) === yes;
  },
  feedback: () => askFeedback(),
  commands: async (message, detail) => {
    const plan = 'Approve the Plan Only';
    const both = 'Approve the Plan and These Commands';
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, plan, both);
    return choice === plan ? 'plan' : choice === both ? 'commands' : undefined;
  },
};

/** Feedback for "stay in planning"; undefined when the person pressed Esc. */
export async function askFeedback(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Planwise: Stay in Planning',
    prompt: 'What should change in the plan? (optional)',
    placeHolder: 'e.g. keep the old API, add a migration step',
    ignoreFocusOut: true,
  });
}
