/** Commands on the plan file: open it, compare revisions, run its verify commands. */
import * as vscode from 'vscode';
import { signalOf } from '../cancellation';
import { describeError } from '../log';
import type { HostServices } from './services';

const fileArg = (arg: unknown): string | undefined =>
  typeof arg === 'string' ? arg : arg instanceof vscode.Uri ? arg.fsPath : undefined;

async function planOrTell(s: HostServices, arg: unknown): Promise<string | undefined> {
  const file = fileArg(arg) ?? (await s.currentPlan());
  if (!file) {
    void vscode.window.showInformationMessage('Planwise: there is no plan yet. Run "Planwise: Start Planning" first.');
  }
  return file;
}

export async function openCurrentPlan(s: HostServices, arg?: unknown): Promise<void> {
  const file = await planOrTell(s, arg);
  if (file) await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
}

export async function comparePlanRevisions(s: HostServices, arg?: unknown): Promise<void> {
  const file = await planOrTell(s, arg);
  if (!file) return;
  const cmp = await s.planFiles.comparison(file);
  if (!cmp) {
    void vscode.window.showInformationMessage(
      'Planwise: this plan has only one revision, so there is nothing to compare yet.',
    );
    return;
  }
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(cmp.left), vscode.Uri.file(cmp.right), cmp.title);
}

export async function runAllVerify(s: HostServices, arg?: unknown): Promise<void> {
  const file = await planOrTell(s, arg);
  if (!file) return;
  if (!s.trust.trusted) {
    void vscode.window.showWarningMessage(s.trust.capabilities.explanation ?? 'Verify is off in Restricted Mode.');
    return;
  }
  const markdown = await s.planFiles.read(file);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Planwise: running verify commands', cancellable: true },
    async (_progress, token) => {
      const cancel = signalOf(token);
      try {
        return await s.verify.runAll(file, markdown, cancel.signal);
      } finally {
        cancel.dispose();
      }
    },
  );
  const manual = summary.manual > 0 ? `, ${summary.manual} to check by hand` : '';
  const text = `Planwise verify: ${summary.passed} passed, ${summary.failed} failed${manual}.`;
  if (summary.failed > 0) void vscode.window.showWarningMessage(text);
  else void vscode.window.showInformationMessage(text);
}

export async function runVerify(
  s: HostServices,
  file?: unknown,
  stepIndex?: unknown,
  command?: unknown,
): Promise<void> {
  const plan = fileArg(file);
  if (!plan || typeof stepIndex !== 'number' || typeof command !== 'string') {
    void vscode.window.showErrorMessage(
      'Planwise: "Run Verify Command" needs a plan file, a step number and a command; use the CodeLens above a step.',
    );
    return;
  }
  try {
    const r = await s.verify.run(plan, stepIndex, command);
    s.log.info(
      `verify "${command}" for step ${stepIndex}: exit ${r.exitCode ?? 'none'}${r.timedOut ? ' (timed out)' : ''}`,
    );
  } catch (err) {
    void vscode.window.showWarningMessage(`Planwise: could not run "${command}": ${describeError(err)}`);
  }
}
