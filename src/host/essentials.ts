/**
 * What every command, the panel and the plan lenses share, and nothing heavier: the settings, the
 * API key's store, the log, workspace trust, the advice toasts, and the four commands that need no
 * host (the key, the model, the log). A bundle of its own, dist/essentials.js: `dist/extension.js`
 * holds only the command table, so activation parses a few KB, and requires this file just after
 * activation (or with the first command or view, if one comes sooner).
 */
import * as vscode from 'vscode';
import { clearApiKey, selectModel, setApiKey, showLog, type SettingsCommandDeps } from './commands/settings';
import type { EagerCommandKey, HostCommandKey } from './commands/keys';
import type { Host } from './composition';
import { ConfigService } from './configService';
import { DisposableStore } from './disposables';
import { adviceForSettings, toastText, type Advice } from './errors';
import { COMMANDS, OUTPUT_CHANNEL_NAME, type CommandKey } from './ids';
import { HostLog, describeError } from './log';
import { ApiKeyStore } from './secrets';
import { TrustState } from './trust';

const EAGER: Record<EagerCommandKey, (d: SettingsCommandDeps) => unknown> = {
  setApiKey,
  clearApiKey,
  selectModel,
  showLog,
};
const isEager = (key: CommandKey): key is EagerCommandKey => Object.hasOwn(EAGER, key);
/** Each command id's key (activation registers the ids the manifest contributes). */
const KEY_OF_ID: ReadonlyMap<string, CommandKey> = new Map(
  (Object.entries(COMMANDS) as [CommandKey, string][]).map(([key, id]) => [id, key]),
);

export interface Essentials extends vscode.Disposable {
  readonly context: vscode.ExtensionContext;
  readonly config: ConfigService;
  readonly log: HostLog;
  readonly keys: ApiKeyStore;
  readonly trust: TrustState;
  /** Fired when plan-file lenses should be asked for again. */
  readonly lensChanged: vscode.EventEmitter<void>;
  showAdvice(advice: Advice): void;
  /** Runs the command `id`: here if it needs no host, else through the host (loaded by `host`). */
  runCommand(id: string, args: readonly unknown[], host: () => Promise<Host>): Promise<unknown>;
  /** Logs a command that threw and tells the person in a toast. */
  commandFailed(command: string, err: unknown): void;
  /**
   * What follows activation: the lens provider for plan files (its selector follows the
   * plans-folder setting) and the settings check, which warns about a bad value.
   */
  startLenses(provideLenses: (doc: vscode.TextDocument) => Promise<vscode.CodeLens[]>): void;
}

export function createEssentials(context: vscode.ExtensionContext): Essentials {
  const store = new DisposableStore();
  // The output channel is made when first written to or shown.
  let made: vscode.LogOutputChannel | undefined;
  const output = (): vscode.LogOutputChannel =>
    (made ??= store.add(vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true })));
  const channel = { show: (preserveFocus?: boolean) => output().show(preserveFocus) };
  const keys = store.add(new ApiKeyStore(context.secrets));
  const log = new HostLog(
    {
      debug: (m) => output().debug(m),
      info: (m) => output().info(m),
      warn: (m) => output().warn(m),
      error: (m) => output().error(m),
    },
    () => keys.known,
  );
  const showAdvice = (advice: Advice) => {
    const show = advice.severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    void show(toastText(advice.message), ...advice.actions).then((action) => {
      if (action === 'Set API Key') void vscode.commands.executeCommand(COMMANDS.setApiKey);
      else if (action === 'Open Settings')
        void vscode.commands.executeCommand('workbench.action.openSettings', advice.setting ?? 'planwise');
      else if (action === 'Show Log') channel.show(true);
    });
  };
  const config = store.add(
    new ConfigService((problems) => {
      const advice = adviceForSettings(problems);
      if (advice) showAdvice(advice);
    }),
  );
  const trust = new TrustState(vscode.workspace.isTrusted);
  store.add(vscode.workspace.onDidGrantWorkspaceTrust(() => trust.grant()));
  const lensChanged = store.add(new vscode.EventEmitter<void>());
  const settingsDeps: SettingsCommandDeps = { keys, config, log, channel };

  let lensRegistration: vscode.Disposable | undefined;
  store.addCallback(() => lensRegistration?.dispose());
  let lensesStarted = false;

  return {
    context,
    config,
    log,
    keys,
    trust,
    lensChanged,
    showAdvice,
    runCommand: async (id, args, host) => {
      const key = KEY_OF_ID.get(id);
      if (key === undefined) throw new Error(`Planwise has no command ${id}`);
      return isEager(key) ? EAGER[key](settingsDeps) : (await host()).run(key as HostCommandKey, args);
    },
    commandFailed: (command, err) => {
      log.error(`command ${command} failed`, err);
      void vscode.window.showErrorMessage(toastText(describeError(err)));
    },
    startLenses: (provideLenses) => {
      if (lensesStarted) return;
      lensesStarted = true;
      const register = (dir: string) => {
        lensRegistration?.dispose();
        lensRegistration = vscode.languages.registerCodeLensProvider(
          { scheme: 'file', pattern: `**/${dir}/*.md` },
          { onDidChangeCodeLenses: lensChanged.event, provideCodeLenses: provideLenses },
        );
      };
      let plansDir = config.plansDirectory;
      register(plansDir);
      store.add(
        config.onDidChange((s) => {
          if (s.plansDirectory === plansDir) return;
          plansDir = s.plansDirectory;
          register(plansDir);
        }),
      );
      const advice = adviceForSettings(config.settingProblems);
      if (advice) showAdvice(advice);
    },
    dispose: () => store.dispose(),
  };
}
