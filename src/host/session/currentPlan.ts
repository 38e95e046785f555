/**
 * The plan a command acts on when it names none: the session's plan, else the plan file open in
 * the active editor, else the newest plan in the plans folder.
 */
import * as vscode from 'vscode';
import type { PlanFiles } from './planFiles';

export async function currentPlanFile(
  sessionPlan: string | undefined,
  planFiles: () => PlanFiles,
): Promise<string | undefined> {
  if (sessionPlan) return sessionPlan;
  const pf = planFiles();
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && pf.isPlanFile(active.fsPath)) return active.fsPath;
  return pf.newest();
}
