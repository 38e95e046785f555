/**
 * The workspace ports for the open folders, built once and rebuilt when the folders change:
 * reader (workspace.fs + files.exclude), writer (atomic), the build agent's edit writer, and the
 * plan files.
 */
import * as vscode from 'vscode';
import { promises as fsp, realpathSync } from 'node:fs';
import type { WorkspaceReader, WorkspaceWriter } from '../core/api/ports';
import { WorkspaceEditWriter } from './adapters/editWriter';
import { ExcludingReader } from './adapters/filesExclude';
import { VscodeWorkspaceReader, VscodeWorkspaceWriter } from './adapters/vscodeFs';
import type { ConfigService } from './configService';
import { PlanFiles } from './session/planFiles';

export interface WorkspaceParts {
  readonly key: string;
  /** Listings leave out what `files.exclude` hides (the Explorer's view, for list_files). */
  readonly reader: WorkspaceReader;
  /** The same folders unfiltered, for the read-only gate: a shell's globs see every entry. */
  readonly gateFs: WorkspaceReader;
  readonly writer: WorkspaceWriter;
  readonly editWriter: WorkspaceWriter;
  readonly planFiles: PlanFiles;
}

export class WorkspacePartsCache {
  private parts: WorkspaceParts | undefined;

  constructor(private readonly config: ConfigService) {}

  /** Real paths of the open local folders; the first is the primary root. */
  roots(): string[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => {
        try {
          return realpathSync(f.uri.fsPath);
        } catch {
          return f.uri.fsPath;
        }
      });
  }

  get(): WorkspaceParts {
    const roots = this.roots();
    if (roots.length === 0) throw new Error('Open a folder first: Planwise plans inside a workspace folder.');
    const key = roots.join('\n');
    if (this.parts?.key === key) return this.parts;
    const toUri = (p: string) => vscode.Uri.file(p);
    const inner = new VscodeWorkspaceReader(roots, vscode.workspace.fs, toUri, (p) => fsp.realpath(p));
    const reader = new ExcludingReader(inner, () => this.config.filesExclude);
    const writer = new VscodeWorkspaceWriter(vscode.workspace.fs, toUri, (from, to) => fsp.rename(from, to));
    this.parts = {
      key,
      reader,
      gateFs: inner,
      writer,
      editWriter: new WorkspaceEditWriter(writer),
      planFiles: new PlanFiles(reader, () => this.config.settings.plansDirectory),
    };
    return this.parts;
  }
}
