import type * as vscode from 'vscode';

/** Composition root of the VS Code host. Kept cheap: the engine loads on first use. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
