/** The status-bar budget item: shown while a session is active, fed from the session's standing. */
import * as vscode from 'vscode';
import type { SessionStanding } from '../../core/api/sessions';
import { COMMANDS, FOCUS_PANEL_COMMAND } from '../ids';
import { statusView, type GrantAsk } from './format';

const BACKGROUND = {
  normal: undefined,
  warning: new vscode.ThemeColor('statusBarItem.warningBackground'),
  error: new vscode.ThemeColor('statusBarItem.errorBackground'),
} as const;

export class BudgetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planwise.budget', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Planwise Budget';
  }

  /** `standing` is undefined when no session is active. `grant`: a limit the engine asks to raise. */
  update(standing: SessionStanding | undefined, grant: GrantAsk | null): void {
    if (!standing) {
      this.item.hide();
      return;
    }
    const view = statusView(standing.budget ?? null, grant, standing.tracker ?? null);
    this.item.text = view.text;
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    tooltip.isTrusted = false;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = BACKGROUND[view.severity];
    this.item.accessibilityInformation = { label: view.accessibilityLabel, role: 'button' };
    this.item.command = view.click === 'grantMore' ? COMMANDS.grantMore : FOCUS_PANEL_COMMAND;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
