/** The panel's actions (`PanelActions`) on top of the controller, the pending table and the commands. */
import * as vscode from 'vscode';
import type { InterviewOutcome } from '../../protocol';
import { COMMANDS } from '../ids';
import type { HostServices } from '../commands/services';
import { comparePlanRevisions } from '../commands/planFile';
import { reportStartError } from '../commands/planning';
import { resumeSession } from '../commands/resume';
import { describeError } from '../log';
import type { PanelHub } from './hub';
import type { PanelActions } from './handlers';
import { checkAnswers, type InterviewData } from '../prompts/hostInterviewer';

/**
 * The plan a panel message names (workspace-relative, as shown), when it is a plan file inside the
 * workspace; a message from a page that named none means the current plan.
 */
async function planOf(s: HostServices, planFile: string | undefined): Promise<string | undefined> {
  if (planFile === undefined) return s.currentPlan();
  const abs = s.planFiles.resolveInWorkspace(planFile);
  if (abs && s.planFiles.isPlanFile(abs)) return abs;
  s.log.warn(`the panel named ${planFile}, which is not a plan file of this workspace; ignored`);
  return undefined;
}

export function createPanelActions(s: HostServices, hub: PanelHub): PanelActions {
  return {
    sendSnapshot: () => hub.sendSnapshot(),
    answerReady: (heldSeq) => hub.answerReady(heldSeq),
    async submit(text) {
      s.controller.submit(text).catch((err: unknown) => reportStartError(s, err));
    },
    setMode: (mode) => s.controller.setMode(mode),
    answerInterview(requestId, outcome: InterviewOutcome) {
      const entry = s.pending.get(requestId);
      if (!entry || entry.kind !== 'interview') return false;
      if (outcome.kind === 'answered') {
        const problem = checkAnswers((entry.data as InterviewData).questions, outcome.answers);
        if (problem) {
          s.log.warn(`dropped the panel's answers to ${requestId}: ${problem}`);
          return true;
        }
      }
      return s.pending.resolve(requestId, 'interview', outcome);
    },
    answerApproval: (requestId, decision, feedback, allowCommands) =>
      s.controller.decide(decision, feedback, requestId, allowCommands),
    answerEnterPlanning: (requestId, accept) => s.pending.resolve(requestId, 'enterPlanning', accept),
    answerGrantMore: (requestId, grant) => s.pending.resolve(requestId, 'grantMore', grant),
    async openFile(path, line) {
      const abs = s.planFiles.resolveInWorkspace(path);
      if (!abs) {
        s.log.warn(`the panel asked to open ${path}, which is outside the workspace; refused`);
        void vscode.window.showWarningMessage(`Planwise opens files inside the workspace only; ${path} is not.`);
        return;
      }
      const at = line !== undefined ? new vscode.Position(line - 1, 0) : undefined;
      await vscode.window.showTextDocument(vscode.Uri.file(abs), {
        preview: true,
        ...(at ? { selection: new vscode.Range(at, at) } : {}),
      });
    },
    async runVerify(itemPath, entry, planFile) {
      const plan = await planOf(s, planFile);
      if (!plan) {
        void vscode.window.showWarningMessage('Planwise: there is no plan to verify.');
        return;
      }
      try {
        await s.verify.run(plan, itemPath, entry);
      } catch (err) {
        void vscode.window.showWarningMessage(`Planwise: could not run "${entry}": ${describeError(err)}`);
      }
    },
    async cancelVerify(itemPath, entry, planFile) {
      const plan = await planOf(s, planFile);
      if (plan) s.verify.cancel(plan, itemPath, entry);
    },
    async markChecked(itemPath, entry, planFile) {
      const plan = await planOf(s, planFile);
      if (!plan) return;
      try {
        await s.verify.markChecked(plan, itemPath, entry);
      } catch (err) {
        void vscode.window.showWarningMessage(`Planwise: could not mark "${entry}" checked: ${describeError(err)}`);
      }
    },
    compareRevisions: () => comparePlanRevisions(s),
    resume: (sessionId) => resumeSession(s, sessionId),
    async setApiKey() {
      await vscode.commands.executeCommand(COMMANDS.setApiKey);
    },
    async retry(noticeId) {
      s.controller.retry(noticeId).catch((err: unknown) => reportStartError(s, err));
    },
    async changeProvider() {
      await s.changeProvider();
    },
    stop: () => s.controller.stop(),
    async trustWorkspace() {
      await s.trustWorkspace();
    },
    async revertBuild(sessionId, toStep) {
      // The card chose the target: the command shows the diff and asks, with no picker first.
      await vscode.commands.executeCommand(COMMANDS.revertBuild, sessionId, { toStep: toStep ?? null });
    },
    async setup(what, draft) {
      if (what === 'close') s.setup.close();
      else if (draft && what === 'edit') s.setup.edit(draft);
      else if (draft && what === 'test') await s.setup.test(draft);
      else if (draft && what === 'save' && (await s.setup.save(draft)))
        s.log.info('setup saved: provider, base URL and model');
    },
  };
}
