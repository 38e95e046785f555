/**
 * CodeLenses on plan files: computed by `planLenses` from the document's text, turned into VS
 * Code commands here. Registered only for the plans folder's pattern.
 */
import * as vscode from 'vscode';
import { itemAtPath, type PlanVerdict, type Tracker } from '../../core/index';
import { COMMANDS } from '../ids';
import { planLenses, type LensAction, type LensInput } from './lenses';

export interface LensSource {
  readonly trusted: boolean;
  /** The engine's one parse of a plan text. */
  parse(markdown: string): Pick<PlanVerdict, 'summary'>;
  /** The plan's tracker as the workspace holds it (absent: none, or the plan was never built). */
  trackerOf?(planFile: string): Promise<Tracker | undefined>;
  resultOf(planFile: string): LensInput['resultOf'];
  /** Brings back the plan's kept verify results (after a reload) before its lenses are shown. */
  restoreResults?(planFile: string): Promise<unknown>;
  gateOpenFor(planFile: string): boolean;
  revisions(planFile: string): Promise<number>;
  isPlanFile(path: string): boolean;
  /** Unresolved review threads on a plan (absent: the host keeps no review). */
  openComments?(planFile: string): Promise<number>;
}

function commandOf(action: LensAction, file: string): Pick<vscode.Command, 'command' | 'arguments'> {
  switch (action.kind) {
    case 'runVerify':
      return { command: COMMANDS.runVerify, arguments: [file, action.step, action.entry] };
    case 'cancelVerify':
      return { command: COMMANDS.cancelVerify, arguments: [file, action.step, action.entry] };
    case 'markChecked':
      return { command: COMMANDS.markChecked, arguments: [file, action.step, action.entry] };
    case 'runAllVerify':
      return { command: COMMANDS.runAllVerify, arguments: [file] };
    case 'approve':
      return { command: COMMANDS.approvePlan };
    case 'revise':
      return { command: COMMANDS.stayInPlanning };
    case 'compare':
      return { command: COMMANDS.comparePlanRevisions, arguments: [file] };
    case 'manageTrust':
      return { command: 'workbench.trust.manage' };
    case 'none':
      return { command: '' };
  }
}

export async function provideLenses(source: LensSource, doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  const file = doc.uri.fsPath;
  if (doc.uri.scheme !== 'file' || !source.isPlanFile(file)) return [];
  await source.restoreResults?.(file);
  const markdown = doc.getText();
  const tracker = await source.trackerOf?.(file);
  const specs = planLenses({
    markdown,
    verdict: source.parse(markdown),
    ...(tracker ? { stepStatus: (step: string) => itemAtPath(tracker.items, step)?.status } : {}),
    trusted: source.trusted,
    now: Date.now(),
    resultOf: source.resultOf(file),
    gateOpen: source.gateOpenFor(file),
    revisions: await source.revisions(file),
    ...(source.openComments ? { openComments: await source.openComments(file) } : {}),
  });
  return specs.map((s) => {
    const range = new vscode.Range(s.line, 0, s.line, 0);
    return new vscode.CodeLens(range, {
      title: s.title,
      ...(s.tooltip ? { tooltip: s.tooltip } : {}),
      ...commandOf(s.action, file),
    });
  });
}
