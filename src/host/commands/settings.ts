/**
 * Commands that need no engine and load nothing heavy: the API key, the model, the log.
 */
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../secrets';
import { checkApiKey } from '../secrets';
import type { ConfigService } from '../configService';
import type { HostLog } from '../log';
import { describeError } from '../log';
import { listModels } from '../models';
import { vscodeLmModels } from '../adapters/vscodeLmProvider';
import type { LmModelInfo } from '../adapters/vscodeLmModelClient';
import { modelPickRows, type ModelPickRow } from './modelPicks';

export interface SettingsCommandDeps {
  readonly keys: ApiKeyStore;
  readonly config: ConfigService;
  readonly log: HostLog;
  /** The "Planwise" output channel (made when first shown or written to). */
  readonly channel: { show(preserveFocus?: boolean): void };
}

export async function setApiKey(d: SettingsCommandDeps): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: 'Planwise: Set API Key',
    prompt: `API key for ${d.config.settings.baseUrl}. It is kept in VS Code's secret storage, never in settings.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'Paste the key',
    validateInput: (v) => checkApiKey(v),
  });
  if (value === undefined) return;
  try {
    await d.keys.set(value);
  } catch (err) {
    void vscode.window.showErrorMessage(`Planwise: the key was not saved: ${describeError(err)}`);
    return;
  }
  d.log.info('API key stored in secret storage');
  void vscode.window.showInformationMessage("Planwise: API key saved in VS Code's secret storage.");
}

export async function clearApiKey(d: SettingsCommandDeps): Promise<void> {
  if (!(await d.keys.hasKey())) {
    void vscode.window.showInformationMessage('Planwise: no API key is stored.');
    return;
  }
  await d.keys.clear();
  d.log.info('API key removed from secret storage');
  void vscode.window.showInformationMessage('Planwise: API key removed.');
}

type ModelPick = vscode.QuickPickItem & Omit<ModelPickRow, 'separator'>;

export async function selectModel(d: SettingsCommandDeps): Promise<void> {
  const s = d.config.settings;
  const quickPick = vscode.window.createQuickPick<ModelPick>();
  quickPick.title = 'Planwise: Select Model';
  quickPick.placeholder = `Models at ${s.baseUrl} and VS Code's language models, or type a model name`;
  quickPick.busy = true;
  quickPick.show();
  let endpoint: string[] = [];
  let lm: LmModelInfo[] = [];
  const refresh = () => {
    const { rows, active } = modelPickRows(s, { typed: quickPick.value, endpoint, lm });
    const items = rows.map((r): ModelPick =>
      r.separator ? { label: r.label, kind: vscode.QuickPickItemKind.Separator } : { ...r },
    );
    quickPick.items = items;
    // The picker opens on the planning model in use (new items would make the first row active);
    // while the person types, VS Code's own filtering decides.
    const current = active && items[rows.indexOf(active)];
    if (current && quickPick.value === '') quickPick.activeItems = [current];
  };
  quickPick.onDidChangeValue(refresh);
  let pending = 2;
  const settle = () => {
    if (--pending === 0) quickPick.busy = false;
    refresh();
  };
  listModels(s.baseUrl, await d.keys.get()).then(
    ({ ids }) => {
      endpoint = ids;
      settle();
    },
    (err: unknown) => {
      d.log.warn(`listing models failed: ${describeError(err)}`);
      quickPick.placeholder = `${describeError(err)}`;
      settle();
    },
  );
  vscodeLmModels().then(
    (models) => {
      lm = models;
      settle();
    },
    (err: unknown) => {
      d.log.warn(`listing VS Code language models failed: ${describeError(err)}`);
      settle();
    },
  );
  const picked = await new Promise<ModelPick | undefined>((resolve) => {
    quickPick.onDidAccept(() => {
      const item = quickPick.selectedItems[0];
      const name = quickPick.value.trim();
      resolve(item?.model ? item : name ? { label: name, model: name } : undefined);
    });
    quickPick.onDidHide(() => resolve(undefined));
  });
  quickPick.dispose();
  const model = picked?.model;
  if (!model) return;
  if (picked.provider && picked.provider !== s.provider) {
    // Both agents use one provider: picking a model of the other one switches it.
    await d.config.update('provider', picked.provider);
    d.log.info(`provider set: ${picked.provider}`);
  }
  const use = await vscode.window.showQuickPick(
    [
      { label: 'Planning and building', value: 'both' as const },
      { label: 'Planning only', value: 'plan' as const },
      { label: 'Building only', value: 'build' as const },
    ],
    { title: `Planwise: use ${model} for…` },
  );
  if (!use) return;
  if (use.value !== 'build') await d.config.update('planningModel', model);
  if (use.value === 'both') await d.config.update('buildModel', '');
  if (use.value === 'build') await d.config.update('buildModel', model);
  d.log.info(`model set: ${model} (${use.label.toLowerCase()})`);
}

export function showLog(d: SettingsCommandDeps): void {
  d.channel.show(true);
}
