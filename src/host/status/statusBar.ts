/** The status-bar budget item: shown while a session is active, fed from the panel's view state. */
import * as vscode from 'vscode';
import type { ViewState } from '../../protocol';
import { COMMANDS, FOCUS_PANEL_COMMAND } from '../ids';
import { statusView } from './format';

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

  update(state: ViewState, sessionActive: boolean): void {
    if (!sessionActive) {
      this.item.hide();
      return;
    }
    const view = statusView(state.budget, state.grantMore, state.tracker);
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
