/**
 * The build agent's writes as `WorkspaceEdit`s: the change shows in the editor (a preview tab
 * that keeps focus where it was) and Undo reverts it. Nothing of the person's is lost: an edit is
 * a set of range replacements computed on the open document's current text (dirty or not), never
 * a whole document replaced; a document that no longer holds the text the edit was computed on is
 * refused (`StaleTextError`); and a document that had unsaved changes of the person's is left
 * unsaved (the person saves it), while one without is saved after the edit. New files are created
 * through the edit too. Content that is not UTF-8 text goes through the plain (atomic) writer.
 */
import * as vscode from 'vscode';
import type { BufferWriter, EditOutcome, TextEdit, WorkspaceWriter } from '../../core/api/ports';
import { StaleTextError, minimalEdit } from '../../core/api/build';

const METADATA: vscode.WorkspaceEditEntryMetadata = { label: 'Planwise build agent', needsConfirmation: false };

function decodeText(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

/** The open (not closed) document of `path`, if an editor holds one. */
function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.scheme === 'file' && d.uri.fsPath === path);
}

export class WorkspaceEditWriter implements BufferWriter {
  constructor(private readonly plain: WorkspaceWriter) {}

  async openText(path: string): Promise<{ text: string; dirty: boolean } | undefined> {
    const doc = openDocument(path);
    return doc ? { text: doc.getText(), dirty: doc.isDirty } : undefined;
  }

  async editText(path: string, base: string, edits: readonly TextEdit[]): Promise<EditOutcome> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const text = doc.getText();
    if (text === base) return this.apply(doc, edits);
    // Read from disk, the text keeps its byte order mark; the document's text does not.
    if (base.startsWith('\uFEFF') && text === base.slice(1)) {
      const shift = (n: number) => Math.max(0, n - 1);
      return this.apply(
        doc,
        edits.map((e) => ({ start: shift(e.start), end: shift(e.end), text: e.text })),
      );
    }
    throw new StaleTextError(`${path} changed in its editor since the edit was computed`);
  }

  async writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
    const text = typeof data === 'string' ? data : decodeText(data);
    if (text === undefined) return this.plain.writeFileAtomic(path, data);
    const uri = vscode.Uri.file(path);
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    if (exists) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const edit = minimalEdit(doc.getText(), text);
      if (edit) await this.apply(doc, [edit]);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(text) }, METADATA);
    await this.applyOrThrow(edit, path);
    await this.show(await vscode.workspace.openTextDocument(uri));
  }

  async remove(path: string): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.file(path), { ignoreIfNotExists: true }, METADATA);
    await this.applyOrThrow(edit, path);
  }

  mkdirp(path: string): Promise<void> {
    return this.plain.mkdirp(path);
  }

  /** Range edits on `doc`; saved afterwards only when the person had no unsaved changes in it. */
  private async apply(doc: vscode.TextDocument, edits: readonly TextEdit[]): Promise<EditOutcome> {
    const personsUnsaved = doc.isDirty;
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) {
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text, METADATA);
    }
    await this.applyOrThrow(edit, doc.uri.fsPath);
    if (!personsUnsaved && !(await doc.save())) {
      throw new Error(
        `The edit to ${doc.uri.fsPath} was applied but the file could not be saved; it stays open with unsaved changes.`,
      );
    }
    await this.show(doc);
    return { leftUnsaved: personsUnsaved };
  }

  private async applyOrThrow(edit: vscode.WorkspaceEdit, path: string): Promise<void> {
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(
        `VS Code did not apply the edit to ${path}. The file may be read-only, or changed in an editor meanwhile; read it again and retry.`,
      );
    }
  }

  /** The person sees each change as it lands (a preview tab; focus stays where it was). */
  private async show(doc: vscode.TextDocument): Promise<void> {
    await Promise.resolve(vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true })).catch(
      () => undefined,
    );
  }
}
