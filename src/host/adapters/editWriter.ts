/**
 * The build agent's writes as `WorkspaceEdit`s: the change shows in the editor (a preview tab
 * that keeps focus where it was), Undo reverts it, and the file is saved afterwards. New files
 * are created through the edit too. Content that is not UTF-8 text goes through the plain
 * (atomic) writer.
 */
import * as vscode from 'vscode';
import type { WorkspaceWriter } from '../../core/index';

const METADATA: vscode.WorkspaceEditEntryMetadata = { label: 'Planwise build agent', needsConfirmation: false };

function decodeText(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

export class WorkspaceEditWriter implements WorkspaceWriter {
  constructor(private readonly plain: WorkspaceWriter) {}

  async writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
    const text = typeof data === 'string' ? data : decodeText(data);
    if (text === undefined) return this.plain.writeFileAtomic(path, data);
    const uri = vscode.Uri.file(path);
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    const edit = new vscode.WorkspaceEdit();
    let doc: vscode.TextDocument | undefined;
    if (exists) {
      doc = await vscode.workspace.openTextDocument(uri);
      const current = doc.getText();
      if (current === text) return;
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(current.length)), text, METADATA);
    } else {
      edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(text) }, METADATA);
    }
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(
        `VS Code did not apply the edit to ${path}. The file may be read-only, or changed in an editor meanwhile; read it again and retry.`,
      );
    }
    if (doc && !(await doc.save())) {
      throw new Error(
        `The edit to ${path} was applied but the file could not be saved; it stays open with unsaved changes.`,
      );
    }
    // The person sees each change as it lands (a preview tab; focus stays where it was).
    const shown = doc ?? (await vscode.workspace.openTextDocument(uri));
    await Promise.resolve(vscode.window.showTextDocument(shown, { preview: true, preserveFocus: true })).catch(
      () => undefined,
    );
  }

  mkdirp(path: string): Promise<void> {
    return this.plain.mkdirp(path);
  }
}
