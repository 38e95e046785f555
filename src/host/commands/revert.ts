/**
 * Revert Build: the files a build touched go back to their state before the build (edited and
 * deleted files restored, created files removed), or to the checkpoint taken when a step
 * completed. The diff is shown first, as a read-only document, with one question that names the
 * files the person changed after the build (`revertQuestion`). The revert is one WorkspaceEdit,
 * so one Undo brings back what it replaced.
 */
import * as vscode from 'vscode';
import type { CheckpointStore } from '../../core/api/ports';
import {
  afterRevert,
  minimalEdit,
  parseManifest,
  planRevert,
  type BuildManifest,
  type RevertItem,
} from '../../core/api/build';
import { describeError } from '../log';
import { revertQuestion } from './revertQuestion';
import type { HostServices } from './services';

const METADATA: vscode.WorkspaceEditEntryMetadata = { label: 'Planwise: Revert Build', needsConfirmation: false };

interface Target {
  readonly toStep?: string;
  readonly label: string;
}

/** The file as the person has it now: the open document's text (dirty or not), else the disk's bytes. */
async function readCurrent(abs: string): Promise<Uint8Array | undefined> {
  const open = vscode.workspace.textDocuments.find(
    (d) => !d.isClosed && d.uri.scheme === 'file' && d.uri.fsPath === abs,
  );
  if (open) return new TextEncoder().encode(open.getText());
  try {
    return await vscode.workspace.fs.readFile(vscode.Uri.file(abs));
  } catch {
    return undefined;
  }
}

function decodeText(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

/**
 * What to revert to: a step (string or number), `{ toStep }` from the panel's build card (null: the
 * whole build, no picker), or else a QuickPick when steps completed.
 */
async function pickTarget(manifest: BuildManifest, step: unknown): Promise<Target | undefined> {
  if (typeof step === 'string' || typeof step === 'number') return { toStep: String(step), label: `step ${step}` };
  if (typeof step === 'object' && step !== null && 'toStep' in step) {
    const to = (step as { toStep: unknown }).toStep;
    if (typeof to === 'string' && to !== '') return { toStep: to, label: `step ${to}` };
    return { label: 'the state before the build' };
  }
  const steps = [...new Set(manifest.checkpoints.map((c) => c.step).filter((s): s is string => s !== undefined))];
  if (steps.length === 0) return { label: 'the state before the build' };
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'The whole build',
        description: 'every touched file as it was before the build',
        target: { label: 'the state before the build' },
      },
      ...steps.map((s) => ({
        label: `Back to step ${s}`,
        description: `the checkpoint taken when step ${s} completed`,
        target: { toStep: s, label: `step ${s}` } as Target,
      })),
    ],
    { title: 'Planwise: Revert Build', placeHolder: 'What to revert to' },
  );
  return picked?.target;
}

/** The edit that reverts `items`: text files by a range replacement, others as whole-file operations. */
async function revertEdit(
  items: readonly RevertItem[],
): Promise<{ edit: vscode.WorkspaceEdit; save: vscode.TextDocument[] }> {
  const edit = new vscode.WorkspaceEdit();
  const save: vscode.TextDocument[] = [];
  for (const item of items) {
    const uri = vscode.Uri.file(item.abs);
    if (item.op === 'remove') {
      edit.deleteFile(uri, { ignoreIfNotExists: true }, METADATA);
      continue;
    }
    const data = item.data ?? new Uint8Array();
    const text = item.binary ? undefined : decodeText(data);
    if (item.existsNow && text !== undefined) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const change = minimalEdit(doc.getText(), text);
      if (change)
        edit.replace(
          uri,
          new vscode.Range(doc.positionAt(change.start), doc.positionAt(change.end)),
          change.text,
          METADATA,
        );
      // Saved unless it holds unsaved changes of the person's; unsaved text Planwise left (an Undo
      // of its revert) is not theirs.
      if (!doc.isDirty || !item.personChanged) save.push(doc);
      continue;
    }
    edit.createFile(uri, { overwrite: true, contents: data }, METADATA);
  }
  return { edit, save };
}

/** No session in this window (after a reload): the newest archived sessions that have checkpoints. */
async function pickBuiltSession(s: HostServices): Promise<string | undefined> {
  const ids = ((await s.archive?.list()) ?? []).reverse().slice(0, 30);
  const built: string[] = [];
  for (const id of ids) {
    const manifest = await s
      .checkpoints(id)
      .readManifest()
      .catch(() => undefined);
    if (manifest !== undefined) built.push(id);
  }
  if (built.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(built, {
    title: 'Planwise: Revert Build',
    placeHolder: "Which session's build to revert (newest first)",
  });
  return picked;
}

export async function revertBuild(s: HostServices, idArg?: unknown, stepArg?: unknown): Promise<void> {
  const id = typeof idArg === 'string' ? idArg : (s.controller.current?.id ?? (await pickBuiltSession(s)));
  if (!id) {
    void vscode.window.showInformationMessage('Planwise: there is no build in this window to revert.');
    return;
  }
  let store: CheckpointStore;
  let manifest: BuildManifest | undefined;
  try {
    store = s.checkpoints(id);
    manifest = parseManifest(await store.readManifest());
  } catch (err) {
    void vscode.window.showErrorMessage(`Planwise: the build's checkpoints cannot be read (${describeError(err)}).`);
    return;
  }
  if (!manifest) {
    void vscode.window.showInformationMessage(
      `Planwise: session ${id} has no build checkpoints, so there is nothing to revert.`,
    );
    return;
  }
  const target = await pickTarget(manifest, stepArg);
  if (!target) return;
  const planned = await planRevert(manifest, store, readCurrent, target.toStep);
  if (!planned.ok) {
    void vscode.window.showWarningMessage(`Planwise: ${planned.error}.`);
    return;
  }
  const plan = planned.plan;
  if (plan.items.length === 0) {
    void vscode.window.showInformationMessage(`Planwise: every file the build touched is already at ${target.label}.`);
    return;
  }
  await s.readOnlyDocs.show(
    `${id}/Revert to ${target.toStep !== undefined ? `step ${target.toStep}` : 'before the build'}.diff`,
    plan.diff,
  );
  const q = revertQuestion(plan.items, target.label);
  const answer = await vscode.window.showWarningMessage(
    q.message,
    { modal: true, detail: q.detail },
    ...q.choices.map((c) => c.label),
  );
  const chosen = q.choices.find((c) => c.label === answer)?.items;
  if (!chosen || chosen.length === 0) return;
  try {
    const { edit, save } = await revertEdit(chosen);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the revert');
    for (const doc of save) await doc.save();
    await store.writeManifest(JSON.stringify(afterRevert(manifest, chosen)));
    // The plan's tracker follows: every surface shows the steps the revert undid as pending.
    if (manifest.planFile !== undefined) await s.plans().reverted(manifest.planFile, target.toStep);
  } catch (err) {
    s.log.error(`revert of ${id} failed`, err);
    void vscode.window.showErrorMessage(`Planwise: Revert Build failed: ${describeError(err)}.`);
    return;
  }
  const kept = plan.items.length - chosen.length;
  void vscode.window.showInformationMessage(
    `Planwise: reverted ${chosen.length} file${chosen.length === 1 ? '' : 's'} to ${target.label}${kept > 0 ? `; kept your changes to ${kept}` : ''}. Undo brings the build's changes back.`,
  );
}
