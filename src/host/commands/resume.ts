/**
 * Resume Session: pick an archived session (newest first) and restore it. When it would replace a
 * plan waiting for approval or a finished build's Revert, it asks first (Keep is the default).
 */
import * as vscode from 'vscode';
import { describeError } from '../log';
import { confirmDiscard } from '../prompts/discard';
import { discardUi } from './planning';
import { resumableIds } from '../session/resumable';
import type { HostServices } from './services';

/** At most this many sessions are listed, newest first. */
const LISTED = 30;

interface SessionPick extends vscode.QuickPickItem {
  readonly id: string;
}

async function describe(s: HostServices, id: string): Promise<SessionPick> {
  let task = '';
  let at = '';
  try {
    const first = (await s.archive?.read(id))?.[0];
    const event = first
      ? (JSON.parse(first) as { type?: string; task?: string; at?: number; event?: { task?: string; at?: number } })
      : undefined;
    const e = event?.event ?? event;
    task = e?.task ?? '';
    at = typeof e?.at === 'number' ? new Date(e.at).toLocaleString() : '';
  } catch {
    // A torn or unreadable archive still gets listed by id.
  }
  return { id, label: task !== '' ? task.slice(0, 80) : id, description: at, detail: task !== '' ? id : undefined };
}

export async function resumeSession(s: HostServices, arg?: unknown): Promise<void> {
  let id = typeof arg === 'string' ? arg : undefined;
  if (!id) {
    if (!s.archive) {
      void vscode.window.showWarningMessage(
        'Planwise: this window keeps no session archive, so nothing can be resumed.',
      );
      return;
    }
    const ids = await resumableIds(s.archive, LISTED);
    if (ids.length === 0) {
      void vscode.window.showInformationMessage('Planwise: there are no sessions to resume in this workspace.');
      return;
    }
    const picked = await vscode.window.showQuickPick(Promise.all(ids.map((x) => describe(s, x))), {
      title: 'Planwise: Resume Session',
      placeHolder: 'Pick a session to resume',
      matchOnDetail: true,
    });
    if (!picked) return;
    id = picked.id;
  }
  // Another session takes the panel's place: a waiting plan or a finished build's Revert is asked about first.
  if (id !== s.controller.current?.id && !(await confirmDiscard(discardUi, 'resume', s.controller.atStake()))) return;
  await s.focusPanel();
  try {
    await s.controller.resume(id);
  } catch (err) {
    s.log.error(`resume of ${id} failed`, err);
    void vscode.window.showErrorMessage(`Planwise: ${describeError(err)}`);
  }
}
