/**
 * CodeLenses on plan files: computed by `planLenses` from the document's text, turned into VS
 * Code commands here. Registered only for the plans folder's pattern.
 */
import * as vscode from 'vscode';
import { itemAtPath, resultIn, type ParsedPlan, type PlanVerdict } from '../../core/api/plans';
import { COMMANDS } from '../ids';
import { planLenses, type LensAction } from './lenses';

export interface LensSource {
  readonly trusted: boolean;
  /** The engine's one parse of a plan text. */
  parse(markdown: string): Pick<PlanVerdict, 'summary'>;
  /**
   * The plan as the workspace holds it: its tracker, its verify results (kept ones brought back
   * after a reload), its revisions, its review threads. Undefined when the file cannot be read as
   * a plan.
   */
  planOf(planFile: string): Promise<Pick<ParsedPlan, 'tracker' | 'results' | 'revisions' | 'review'> | undefined>;
  gateOpenFor(planFile: string): boolean;
  isPlanFile(path: string): boolean;
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
  const markdown = doc.getText();
  const plan = await source.planOf(file);
  const tracker = plan?.tracker;
  const specs = planLenses({
    markdown,
    verdict: source.parse(markdown),
    ...(tracker ? { stepStatus: (step: string) => itemAtPath(tracker.items, step)?.status } : {}),
    trusted: source.trusted,
    now: Date.now(),
    resultOf: (step, entry) => (plan ? resultIn(plan, step, entry) : undefined),
    gateOpen: source.gateOpenFor(file),
    revisions: plan?.revisions ?? 0,
    openComments: plan?.review?.open ?? 0,
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
