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

export interface SettingsCommandDeps {
  readonly keys: ApiKeyStore;
  readonly config: ConfigService;
  readonly log: HostLog;
  readonly channel: vscode.LogOutputChannel;
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

interface ModelPick extends vscode.QuickPickItem {
  readonly model?: string;
}

export async function selectModel(d: SettingsCommandDeps): Promise<void> {
  const s = d.config.settings;
  const quickPick = vscode.window.createQuickPick<ModelPick>();
  quickPick.title = 'Planwise: Select Model';
  quickPick.placeholder = `Models at ${s.baseUrl}, or type a model name`;
  quickPick.busy = true;
  quickPick.show();
  const typed = (): ModelPick[] =>
    quickPick.value.trim() !== ''
      ? [{ label: quickPick.value.trim(), description: 'use this name', model: quickPick.value.trim() }]
      : [];
  let listed: ModelPick[] = [];
  quickPick.onDidChangeValue(() => (quickPick.items = [...typed(), ...listed]));
  listModels(s.baseUrl, await d.keys.get()).then(
    ({ ids }) => {
      listed = ids.map((id) => ({
        label: id,
        ...(id === s.planningModel
          ? { description: 'planning model' }
          : id === s.buildModel
            ? { description: 'build model' }
            : {}),
        model: id,
      }));
      quickPick.items = [...typed(), ...listed];
      quickPick.busy = false;
    },
    (err: unknown) => {
      d.log.warn(`listing models failed: ${describeError(err)}`);
      quickPick.placeholder = `${describeError(err)}`;
      quickPick.busy = false;
    },
  );
  const model = await new Promise<string | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]?.model ?? (quickPick.value.trim() || undefined)));
    quickPick.onDidHide(() => resolve(undefined));
  });
  quickPick.dispose();
  if (!model) return;
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
