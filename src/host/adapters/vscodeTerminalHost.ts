/** VS Code's terminal API in the shape `TerminalCommandRunner` takes. */
import * as vscode from 'vscode';
import type { TerminalHost } from './terminalRunner';

export const vscodeTerminalHost: TerminalHost<vscode.Terminal> = {
  createTerminal: (o) =>
    vscode.window.createTerminal({
      name: o.name,
      cwd: o.cwd,
      env: o.env,
      iconPath: new vscode.ThemeIcon('checklist'),
      isTransient: true,
    }),
  onDidChangeTerminalShellIntegration: (l) => vscode.window.onDidChangeTerminalShellIntegration(l),
  onDidStartTerminalShellExecution: (l) => vscode.window.onDidStartTerminalShellExecution(l),
  onDidEndTerminalShellExecution: (l) => vscode.window.onDidEndTerminalShellExecution(l),
  onDidCloseTerminal: (l) => vscode.window.onDidCloseTerminal(l),
};
