/** Commands on the plan file: open it, compare revisions, run its verify commands, cancel them, mark checks. */
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
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Planwise: running verify commands', cancellable: true },
    async (_progress, token) => {
      const cancel = signalOf(token);
      try {
        return await s.verify.runAll(file, cancel.signal);
      } finally {
        cancel.dispose();
      }
    },
  );
  const manual = summary.manual > 0 ? `, ${summary.manual} to check by hand` : '';
  const notRun = summary.notRun > 0 ? `, ${summary.notRun} not run` : '';
  const text = `Planwise verify: ${summary.passed} passed, ${summary.failed} failed${notRun}${manual}.`;
  if (summary.failed > 0 || summary.notRun > 0) void vscode.window.showWarningMessage(text);
  else void vscode.window.showInformationMessage(text);
}

/** Lens arguments: the plan file, the step's item path and the verify entry as written. */
function entryArgs(file: unknown, step: unknown, entry: unknown): [string, string, string] | undefined {
  const plan = fileArg(file);
  const path = typeof step === 'number' ? String(step) : step;
  if (!plan || typeof path !== 'string' || typeof entry !== 'string') return undefined;
  return [plan, path, entry];
}

function needsArgs(what: string): void {
  void vscode.window.showErrorMessage(
    `Planwise: "${what}" needs a plan file, a step and a verify entry; use the CodeLens above a step.`,
  );
}

export async function runVerify(s: HostServices, file?: unknown, step?: unknown, entry?: unknown): Promise<void> {
  const args = entryArgs(file, step, entry);
  if (!args) return needsArgs('Run Verify Command');
  try {
    const r = await s.verify.run(...args);
    s.log.info(
      `verify "${r.command ?? r.entry}" for step ${r.step}: ${r.status}${r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}`,
    );
  } catch (err) {
    void vscode.window.showWarningMessage(`Planwise: could not run "${args[2]}": ${describeError(err)}`);
  }
}

export function cancelVerify(s: HostServices, file?: unknown, step?: unknown, entry?: unknown): void {
  const args = entryArgs(file, step, entry);
  if (!args) return needsArgs('Cancel Verify Command');
  if (!s.verify.cancel(...args)) s.log.info(`verify "${args[2]}" of step ${args[1]} was not running`);
}

export async function markChecked(s: HostServices, file?: unknown, step?: unknown, entry?: unknown): Promise<void> {
  const args = entryArgs(file, step, entry);
  if (!args) return needsArgs('Mark Checked');
  try {
    await s.verify.markChecked(...args);
  } catch (err) {
    void vscode.window.showWarningMessage(`Planwise: could not mark "${args[2]}" checked: ${describeError(err)}`);
  }
}
