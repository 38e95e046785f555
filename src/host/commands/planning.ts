/** Start Planning and the gate's commands: approve, approve in a fresh context, stay (revise), cancel, stop. */
import * as vscode from 'vscode';
import type { ApprovalDecision } from '../../core/api/ports';
import { adviceForMissingKey } from '../errors';
import { describeError } from '../log';
import { confirmDiscard, type DiscardUi } from '../prompts/discard';
import { askFeedback } from '../prompts/native';
import { MissingApiKeyError } from '../session/engine';
import type { HostServices } from './services';

const SELECTION_PREFILL_MAX = 2000;

/** The palette's modal for a command that would discard a waiting plan or a finished build's Revert. */
export const discardUi: DiscardUi = {
  ask: async (message, detail, buttons) =>
    vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons),
};

export async function startPlanning(s: HostServices, task?: unknown): Promise<void> {
  // The second click of a double click on Stop lands here: it starts nothing.
  if (s.controller.justStopped()) return;
  if (!(await confirmDiscard(discardUi, 'start', s.controller.atStake()))) return;
  let text = typeof task === 'string' ? task.trim() : '';
  if (text === '') {
    const editor = vscode.window.activeTextEditor;
    const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
    const input = await vscode.window.showInputBox({
      title: 'Planwise: Start Planning',
      prompt: 'Describe the task to plan. Planning only reads the workspace; nothing changes until you approve.',
      value: selected.slice(0, SELECTION_PREFILL_MAX),
      placeHolder: 'e.g. Add rate limiting to the login endpoint',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Describe the task, or press Escape to cancel.' : undefined),
    });
    if (input === undefined) return;
    text = input.trim();
  }
  await s.focusPanel();
  s.controller.start(text).catch((err: unknown) => reportStartError(s, err));
}

export function reportStartError(s: HostServices, err: unknown): void {
  if (err instanceof MissingApiKeyError) {
    s.showAdvice(adviceForMissingKey(err.baseUrl));
    return;
  }
  s.log.error('could not start the session', err);
  s.showAdvice({
    severity: 'error',
    message: `Planwise could not start: ${describeError(err)}`,
    actions: ['Show Log', 'Open Settings'],
    setting: 'planwise',
  });
}

async function decide(s: HostServices, decision: ApprovalDecision, feedback?: string): Promise<void> {
  const gate = s.pending.first('approval');
  // Approving with open review comments asks once, as the panel, the QuickPick and the CLI do.
  const approves = decision === 'execute' || decision === 'fresh_context';
  if (gate && approves && !(await s.native.confirmApproval(gate.id))) return;
  if (!(await s.controller.decide(decision, feedback, gate?.id))) {
    void vscode.window.showInformationMessage('Planwise: no plan is waiting for approval.');
  }
}

export const approvePlan = (s: HostServices) => decide(s, 'execute');
export const approveFreshContext = (s: HostServices) => decide(s, 'fresh_context');

export async function stayInPlanning(s: HostServices, feedback?: unknown): Promise<void> {
  const text = typeof feedback === 'string' ? feedback : await askFeedback();
  if (text === undefined) return;
  await decide(s, 'revise', text.trim() === '' ? undefined : text.trim());
}

export async function cancelPlan(s: HostServices): Promise<void> {
  if (!(await confirmDiscard(discardUi, 'cancel', s.controller.atStake()))) return;
  await s.controller.cancelPlan();
}

export function stop(s: HostServices): void {
  s.controller.stop();
}

/** The open questions as QuickPicks (keyboard and screen-reader path). */
export async function answerQuestions(s: HostServices): Promise<void> {
  const entry = s.pending.first('interview');
  if (!entry) {
    void vscode.window.showInformationMessage('Planwise: no questions are waiting for an answer.');
    return;
  }
  await s.native.run(entry.id);
}

export async function grantMore(s: HostServices): Promise<void> {
  const entry = s.pending.first('grantMore');
  if (!entry) {
    await s.focusPanel();
    return;
  }
  await s.native.run(entry.id);
}
