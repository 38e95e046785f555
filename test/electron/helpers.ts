/**
 * Shared pieces of the @vscode/test-electron scenarios: the environment test/runTest.ts passes in,
 * settings, waiting, QuickPick/InputBox driving through workbench commands, CodeLens titles and
 * plan files on disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ContextKeyProbe } from './contextKeys';

/** What test/runTest.ts hands every launch. */
export interface ElectronEnv {
  readonly suite: 'main' | 'untrusted' | 'reopened';
  /** The API key the scenarios set and the scripted server requires (scenario 6). */
  readonly apiKey: string;
  /** VS Code's --user-data-dir of this launch (settings.json, logs). */
  readonly userDataDir: string;
}

export function electronEnv(): ElectronEnv {
  const suite = process.env.PLANWISE_ELECTRON_SUITE;
  const apiKey = process.env.PLANWISE_ELECTRON_KEY;
  const userDataDir = process.env.PLANWISE_ELECTRON_USER_DATA;
  if ((suite !== 'main' && suite !== 'untrusted' && suite !== 'reopened') || !apiKey || !userDataDir) {
    throw new Error(
      'The electron suite runs through test/runTest.ts, which sets PLANWISE_ELECTRON_SUITE, PLANWISE_ELECTRON_KEY ' +
        'and PLANWISE_ELECTRON_USER_DATA; run `npx tsx test/runTest.ts`.',
    );
  }
  return { suite, apiKey, userDataDir };
}

/** Set by index.ts before any scenario runs. */
export let keys: ContextKeyProbe;
export function useProbe(probe: ContextKeyProbe): void {
  keys = probe;
}

export const exec = <T = unknown>(command: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(command, ...args);

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await pause(100);
  }
}

/** The only workspace folder's path. */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The electron suite needs the workspace folder runTest.ts opens.');
  return folder.uri.fsPath;
}

/** Points Planwise at a scripted model (user settings, as a person would). */
export async function useModel(baseURL: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('planwise');
  await config.update('baseUrl', baseURL, vscode.ConfigurationTarget.Global);
  await config.update('planningModel', 'scripted-model', vscode.ConfigurationTarget.Global);
}

/**
 * Answers an open QuickPick or InputBox the way the keyboard would: `next` moves the selection down
 * that many rows, then Enter. Quick inputs take a moment to show, hence the pause.
 */
export async function acceptQuickPick(next = 0): Promise<void> {
  await pause(700);
  for (let i = 0; i < next; i++) await exec('workbench.action.quickOpenSelectNext');
  await exec('workbench.action.acceptSelectedQuickOpenItem');
}

/** Types `text` into the focused InputBox by pasting it from the clipboard, then presses Enter. */
export async function typeIntoInputBox(text: string): Promise<void> {
  await pause(700);
  const previous = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText(text);
  await exec('editor.action.clipboardPasteAction');
  await vscode.env.clipboard.writeText(previous);
  await exec('workbench.action.acceptSelectedQuickOpenItem');
}

/** The CodeLens titles of a document, as the editor would show them. */
export async function lensTitles(uri: vscode.Uri): Promise<{ title: string; command: vscode.Command }[]> {
  const lenses = (await exec<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses.flatMap((l) => (l.command ? [{ title: l.command.title, command: l.command }] : []));
}

export async function waitForLens(uri: vscode.Uri, title: RegExp, timeoutMs = 60_000): Promise<vscode.Command> {
  let seen: string[] = [];
  let found: vscode.Command | undefined;
  await waitUntil(
    `a CodeLens matching ${title} (seen: ${JSON.stringify(seen)})`,
    async () => {
      const lenses = await lensTitles(uri);
      seen = lenses.map((l) => l.title);
      found = lenses.find((l) => title.test(l.title))?.command;
      return found !== undefined;
    },
    timeoutMs,
  );
  return found!;
}

/** The plan files (not the tracker sidecars) in `.vtcode/plans/`, oldest first. */
export function planFiles(root = workspaceRoot()): string[] {
  const dir = path.join(root, '.vtcode', 'plans');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.md') && !n.endsWith('.tasks.md'))
    .sort()
    .map((n) => path.join(dir, n));
}

export function newestPlanFile(): string {
  const file = planFiles().at(-1);
  if (!file) throw new Error('No plan file was written to .vtcode/plans/.');
  return file;
}

export const read = (file: string) => readFileSync(file, 'utf8');
