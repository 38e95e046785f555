/**
 * Read-only documents Planwise shows (a revert's diff): served under their own URI scheme by a
 * TextDocumentContentProvider, so the editor never holds them as unsaved buffers and closing one
 * asks nothing.
 */
import * as vscode from 'vscode';

export class VirtualDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Shows `text` as the read-only document `name` (its extension picks the language), beside the editor. */
  async show(name: string, text: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name}` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false });
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.texts.clear();
  }
}
